"""Pure rules engines, one module per game (no I/O)."""
