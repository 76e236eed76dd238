"""What the trick games share: cards, tricks, the engines' skeleton (phases: who may act,
the checked apply, hand after hand), messages, text, records and replay, and the search
the strong AIs build on. A game's package uses these; nothing here names a game."""
