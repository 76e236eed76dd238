"""Plug-in bots for the tests, good and hostile, as module sources; ``write_plugins``
puts each in a folder as ``<name>.py`` (the tests put the folder on ``sys.path``, which
workers inherit)."""

from __future__ import annotations

import textwrap
from pathlib import Path

SOURCES = {
    # The Whist assignment's shape.
    "good_player": """
        class Player:
            '''Plays the lowest card it may (it follows suit when it must).'''

            def PlayCard(self, hand, trick, trump, position, tricks, score):
                if trick:
                    same = [c for c in hand if c.suit == trick[0].suit]
                    if same:
                        return min(same, key=lambda c: c.rank)
                return min(hand, key=lambda c: c.rank)
    """,
    "broken_player": """
        class Player:
            def __init__(self):
                self.turns = 0

            def PlayCard(self, hand, trick, trump, position, tricks, score):
                self.turns += 1
                if self.turns % 3 == 0:
                    raise RuntimeError("my strategy has a bug")
                if self.turns % 3 == 1:
                    return "AS"  # a string, not a Card
                return hand[-1]  # may not follow suit
    """,
    "sleeper": """
        import time

        class Player:
            def PlayCard(self, hand, trick, trump, position, tricks, score):
                time.sleep(2)
                return hand[0]
    """,
    "looper": """
        class Player:
            def PlayCard(self, hand, trick, trump, position, tricks, score):
                while True:
                    pass
    """,
    # Blocks of 1 GiB: the worker's address-space limit refuses the first at once, so
    # the memory limit, not the clock, stops it however loaded the machine is.
    "hog": """
        class Player:
            def PlayCard(self, hand, trick, trump, position, tricks, score):
                held = []
                while True:
                    held.append(bytearray(1 << 30))
    """,
    "raiser": """
        class Player:
            def PlayCard(self, hand, trick, trump, position, tricks, score):
                raise RuntimeError("my strategy has a bug")
    """,
    "exiter": """
        import sys

        class Player:
            def PlayCard(self, hand, trick, trump, position, tricks, score):
                sys.exit(3)
    """,
    "killer": """
        import os

        class Player:
            def PlayCard(self, hand, trick, trump, position, tricks, score):
                os._exit(7)
    """,
    # Sleeps when an odd number of cards lie on the trick (a worker started afresh
    # after a time-out is a new instance: its choice comes from the view alone).
    "sometimes_slow": """
        import time

        class Player:
            def PlayCard(self, hand, trick, trump, position, tricks, score):
                if len(trick) % 2:
                    time.sleep(2)
                same = [c for c in hand if trick and c.suit == trick[0].suit]
                return (same or list(hand))[0]
    """,
    "printer": """
        class Player:
            def PlayCard(self, hand, trick, trump, position, tricks, score):
                print("thinking...")  # goes to stderr, never into the protocol
                same = [c for c in hand if trick and c.suit == trick[0].suit]
                return (same or list(hand))[0]
    """,
    "lazy_signature": """
        class Player:
            def PlayCard(self, hand, trick, trump, position, tricks=(), score=(0, 0)):
                return hand[0]  # and it never follows suit
    """,
    "short_signature": """
        class Player:
            def PlayCard(self, hand, trick, trump):
                return hand[0]
    """,
    "strings": """
        class Player:
            def PlayCard(self, hand, trick, trump, position, tricks, score):
                same = [c for c in hand if trick and c.suit == trick[0].suit]
                return str((same or list(hand))[0])  # "AS", not a Card
    """,
    "outsider": """
        from hundred_server.games.kit.cards import Card

        class Player:
            def PlayCard(self, hand, trick, trump, position, tricks, score):
                for code in ("AS", "AH", "AD", "AC", "KS"):
                    if Card.parse(code) not in hand:
                        return Card.parse(code)
    """,
    "crashes_on_import": "raise SystemError('no')\n",
    "exits_on_import": "import sys\nsys.exit(1)\n",
    "cannot_start": """
        class Player:
            def __init__(self):
                raise ValueError('nope')

            def PlayCard(self, hand, trick, trump, position, tricks, score):
                return hand[0]
    """,
    "no_method": """
        class Player:
            pass
    """,
    # The general shape, for every game.
    "random_act": """
        import random

        class Player:
            '''Picks one of its legal moves at random (a seeded generator).'''

            def __init__(self):
                self.rng = random.Random(7)

            def act(self, view):
                return self.rng.choice(view.legal)
    """,
    "act_first": """
        class Player:
            '''Plays the first of its legal moves.'''

            def act(self, view):
                return view.legal[0]
    """,
    "act_raiser": """
        class Player:
            def act(self, view):
                raise RuntimeError("my strategy has a bug")
    """,
    "act_sleeper": """
        import time

        class Player:
            def act(self, view):
                time.sleep(30)
                return view.legal[0]
    """,
    "act_outsider": """
        class Player:
            def act(self, view):
                return "pass"
    """,
}


def write_plugins(folder: Path) -> Path:
    for name, source in SOURCES.items():
        (folder / f"{name}.py").write_text(textwrap.dedent(source))
    return folder
