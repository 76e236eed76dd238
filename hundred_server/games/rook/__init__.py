"""Rook (RULES.md, "Rook"): its cards, engine, wire messages, records, text mode and bots."""
