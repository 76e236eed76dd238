"""Strategies: ``act(view) -> action`` (no I/O)."""
