"""Spades: rules (rules.py), wire and spec (wire.py), records, text and bots."""
