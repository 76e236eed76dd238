"""What the trick games share: cards, tricks, messages, text, records and replay, and
the search the strong AIs build on. A game's package uses these; nothing here names
a game."""
