"""Hundred and Ten: rules, wire and spec, records, text, bots and the demo."""
