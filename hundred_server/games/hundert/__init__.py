"""Hundert: rules (rules.py), wire and spec (wire.py), records, text mode and bots."""
