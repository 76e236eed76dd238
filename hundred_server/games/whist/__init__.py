"""Whist: rules (rules.py), wire and spec (wire.py), records and bots."""
