"""Spades: its rules, records, text and AI, and a person at a table."""
