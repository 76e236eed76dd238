"""Hundred and Ten: rules, wire and spec, records, bots, the demo, and the reference's
API (compat.py)."""
