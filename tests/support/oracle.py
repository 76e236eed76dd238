"""The leak oracles, for every game through the game interface (``games.names()``,
``games.get(name)``): nothing here names a game.

The truth is the rules engine's own: ``GameState.view_for(seat)`` is what a seat may
know (its hand, what is shown to the table, what it was told), and the cards of a
game's deck are ``GameSpec.seeded_deck``'s. ``SeatOracle`` follows one game, step by
step, and checks what ``Wire.tell``, ``prompt`` and ``snapshot`` give each seat: no
card code that is not in one of that seat's views of this round (another seat's hand,
an undisclosed discard, the kitty or talon before it is shown, the rest of the deck),
and never the table's seed. ``play_checked`` plays whole seeded games through it.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Callable, Collection, Iterable, Sequence
from enum import Enum
from typing import Any

from hundred_server import games
from hundred_server.core import driver
from hundred_server.games.base import WATCHER, Bot, GameSpec, GameState, player_names

Message = dict[str, Any]
#: Fields that hold names and people's text, not cards (text is read by ``names_in``).
#: Deals and moves a whole game takes at most (``play_checked``).
MAX_STEPS = 20_000
NOT_CARDS = ("Players", "Name", "Tables", "Message", "From", "Text", "Hash", "Seed")


class LeakError(AssertionError):
    """A seat (or a watcher) was told what it may not know."""


def deck_codes(spec: GameSpec, seed: str = "codes") -> frozenset[str]:
    """Every card code of the game's deck."""
    return frozenset(card.code for card in spec.seeded_deck(seed, 0))


def card_names(spec: GameSpec, codes: Iterable[str]) -> dict[str, str]:
    """A card's name in people's text -> its code: the code itself, and the game's
    text-mode name for it (``GameSpec.text.numbered_text``), as Rook's "Black 5"."""
    names = {code: code for code in codes}
    if spec.text is not None:
        from hundred_server.protocol.codecs.text import TextCodec  # a screen of symbols

        screen = TextCodec()
        for code in list(names):
            names[spec.text.numbered_text([code], screen).removeprefix("1:")] = code
    return names


class CardReader:
    """The card codes a message names, in one game: card fields, and card names in
    people's text."""

    def __init__(self, spec: GameSpec) -> None:
        self.codes = deck_codes(spec)
        names = card_names(spec, self.codes)
        words = sorted(names, key=len, reverse=True)
        self.names = names
        self._text = re.compile(r"(?<![\w♥♦♠♣])(" + "|".join(map(re.escape, words)) + r")(?!\w)")

    def fields(self, msg: object) -> list[str]:
        return card_fields(msg, self.codes, NOT_CARDS)

    def text(self, text: str) -> list[str]:
        return [self.names[m[1]] for m in self._text.finditer(text)]

    def named(self, msg: Message) -> list[str]:
        if msg.get("Type") in ("Message", "Chat"):
            return self.text(str(msg.get("Message", msg.get("Text", ""))))
        return self.fields(msg)


def card_fields(msg: object, codes: Collection[str], skip: Sequence[str] = NOT_CARDS) -> list[str]:
    """The strings among ``codes`` anywhere in ``msg``'s fields, but under ``skip``."""
    found: list[str] = []

    def walk(value: object, key: str = "") -> None:
        if key in skip:
            return
        if isinstance(value, str) and value in codes:
            found.append(value)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for k, v in value.items():
                walk(v, k)

    walk(msg)
    return found


def cards_held(obj: object, codes: Collection[str]) -> set[str]:
    """The codes of every card anywhere in an engine's object (a view: its fields,
    slots, tuples, sets and mappings), read without knowing its type."""
    found: set[str] = set()
    seen: set[int] = set()

    def walk(value: object) -> None:
        code = getattr(value, "code", None)
        if isinstance(code, str) and code in codes:  # a card (some decks are enums)
            found.add(code)
            return
        if isinstance(value, (str, bytes, int, float, Enum)) or value is None:
            return
        if id(value) in seen:
            return
        seen.add(id(value))
        if isinstance(value, dict):
            for k, v in value.items():
                walk(k)
                walk(v)
        elif isinstance(value, (tuple, list, set, frozenset)):
            for item in value:
                walk(item)
        elif dataclasses.is_dataclass(value):
            for f in dataclasses.fields(value):
                walk(getattr(value, f.name))
        else:
            for cls in type(value).__mro__:
                for name in getattr(cls, "__slots__", ()):
                    walk(getattr(value, name, None))
            for item in getattr(value, "__dict__", {}).values():
                walk(item)

    walk(obj)
    return found


class SeatOracle:
    """What every seat of one game is told, checked against what it may know.

    Call ``step`` after each batch of events with what each seat and a watcher were
    told (``tell``, prompts, snapshots); it raises ``LeakError`` at the first card a
    seat may not know (in none of its views of the round so far, and not told to a
    watcher, whose stream ``WatcherOracle`` checks holds only what is face up) and at
    the seed before the end."""

    def __init__(self, spec: GameSpec, game: GameState, seed: str) -> None:
        self.spec, self.game, self.seed = spec, game, seed
        self.reader = CardReader(spec)
        self.known: dict[int, set[str]] = {s: set() for s in range(len(game.players))}
        #: What a watcher was told this round (``WatcherOracle`` checks it is face up):
        #: the last card of a round is public, though no view holds it once it ends.
        self.public: set[str] = set()
        self.learn()

    def learn(self) -> None:
        """Add what each seat's view holds now to what it may know this round."""
        for seat, known in self.known.items():
            known |= cards_held(self.game.view_for(seat), self.reader.codes)

    def step(self, told: dict[int | None, list[Message]]) -> None:
        """Check the messages told to each seat by the events just applied (call
        ``learn`` before applying them: a card played was its seat's)."""
        self.learn()
        for msg in told.get(WATCHER, []):
            self.public.update(self.reader.named(msg))
        for seat, messages in told.items():
            for msg in messages:
                self.check(seat, msg)
        if self.game.needs_deal:  # the round is over: its cards are gone
            self.public.clear()
            for known in self.known.values():
                known.clear()

    def check(self, seat: int | None, msg: Message) -> None:
        line = json.dumps(msg)
        if not self.game.is_over and self.seed in line:
            raise LeakError(f"seat {seat} is told the seed before the end: {line}")
        if seat is WATCHER:
            return  # a watcher's own oracle: WatcherOracle
        known = self.known[seat] | self.public
        leaked = [c for c in self.reader.named(msg) if c not in known]
        if leaked:
            raise LeakError(f"seat {seat} is told {leaked}, which it may not know: {line}")

    def told_now(self) -> dict[int | None, list[Message]]:
        """What a seat that came back now is told, and every seat's prompt."""
        seats = range(len(self.game.players))
        told: dict[int | None, list[Message]] = {}
        for seat in seats:
            told[seat] = [self.spec.wire.snapshot(self.game, seat, 1)]
            if (prompt := self.spec.wire.prompt(self.game, seat, 1)) is not None:
                told[seat].append(prompt)
        return told


class RandomPerson:
    """A person at the table: now and then any legal answer, at random (seeded), else
    the naive AI's (all-random bidders would hardly ever finish a game)."""

    def __init__(self, game: GameState, seat: int, rng: random.Random, naive: Bot) -> None:
        self.game, self.seat, self.rng, self.naive = game, seat, rng, naive

    def act(self, view: object) -> Any:
        if self.rng.random() < 0.3:
            return self.rng.choice(self.game.legal_actions(self.seat))
        return self.naive.act(view)


def play_checked(
    name: str,
    seats: int,
    seed: str,
    people: Collection[int] = (),
    *,
    watcher: bool = True,
    plant: Callable[[GameState, dict[int | None, list[Message]]], None] | None = None,
) -> GameState:
    """One whole seeded game of ``name`` at ``seats`` seats, the naive AI at every seat
    but ``people`` (who answer at random from the legal actions), every batch told to
    each seat and a watcher checked by the seat oracle (and, with ``watcher``, the
    watcher's by ``WatcherOracle``). ``plant`` may change what is told before it is
    checked (the tests that show the oracle can fail)."""
    spec = games.get(name)
    game = spec.new_game(player_names(seats), seed)
    rng = random.Random(seed)
    naive = spec.bots["naive"]
    bots: list[Bot] = [
        RandomPerson(game, s, rng, naive()) if s in people else naive() for s in range(seats)
    ]
    seat_oracle = SeatOracle(spec, game, seed)
    watching = WatcherOracle(spec)
    for _ in range(MAX_STEPS):
        seat_oracle.learn()  # what a card played now was: a card of its seat's hand
        if (events := driver.step(game, spec, seed, bots)) is None:
            break
        told = spec.wire.tell(events, [WATCHER, *range(seats)], game.players)
        if rng.random() < 0.2 and not game.is_over and not game.needs_deal:
            for seat, more in seat_oracle.told_now().items():
                told.setdefault(seat, []).extend(more)
        if plant is not None:
            plant(game, told)
        seat_oracle.step(told)
        if watcher:
            watching.check(told.get(WATCHER, []))
    assert game.is_over, f"{name}: no end in {MAX_STEPS} steps"
    return game


# ------------------------------------------------------------------ a watcher's stream

#: The games whose wire never names a card of a finished trick again once the next
#: one starts (Rook's RULES.md item 7): the one rule here the interface does not say.
FORGETS_TRICKS = frozenset({"rook"})


class WatcherOracle:
    """A watcher is told no card that is not face up, from its stream alone: every card
    code it is told (in a field, or by name in people's text) was played to a trick,
    turned up, shown in a meld or a pile, or named as a called card, this round, by the
    time it is told; and it never gets a key that holds one seat's own cards. At a
    table of a game in ``FORGETS_TRICKS``, no card of a finished trick is named again
    once the next trick starts."""

    #: Keys that hold one seat's own cards, never in a watcher's stream (a ``Meld``'s
    #: ``Hand`` and a ``Pile``'s ``Cards`` are face up).
    PRIVATE_KEYS = frozenset({"Legal", "Hand", "Cards", "Discard", "Discarded", "Token", "Win"})
    #: The bidder names the partner cards it calls (by name) before its Setup says so.
    CALLED = re.compile(r" names \w+ trump and calls (.*); the discard holds")

    def __init__(self, spec: GameSpec) -> None:
        self.reader = CardReader(spec)
        self.forgets_tricks = spec.name in FORGETS_TRICKS
        self.shown: set[str] = set()
        self.trick: list[str] = []
        self.gone: set[str] = set()
        self.trick_over = False

    def check(self, messages: Iterable[Message]) -> None:
        for msg in messages:
            self.see(msg)

    def see(self, msg: Message) -> None:
        """Check one message; raise ``LeakError`` if it tells what is not face up."""
        kind = msg.get("Type")
        line = json.dumps(msg)
        if kind == "Seat":
            raise LeakError(f"a watcher holds no seat: {line}")
        public: set[str] = set()
        if kind == "Deal":
            if "Playerid" in msg or "Hand" in msg:
                raise LeakError(f"a watcher's Deal has no seat and no hand: {line}")
            self.shown, self.trick, self.gone, self.trick_over = set(), [], set(), False
        elif kind == "Snapshot":
            if {"Playerid", "Hand", "Discarded"} & set(msg):
                raise LeakError(f"a watcher's Snapshot has no seat, hand or discard: {line}")
            self.shown, self.gone, self.trick_over = set(), set(), False
            self.trick = [p["PlayedCard"] for p in msg.get("Trick", [])]
            public |= set(self.trick) | set(msg.get("Pile", [])) | set(msg.get("Called", []))
            public |= {p["PlayedCard"] for p in msg.get("Played", [])}
            public |= {c for m in msg.get("Meld", []) for c in m["Hand"]}
            public |= {msg["TrumpCard"]} if "TrumpCard" in msg else set()
        elif kind == "Play" and "PlayedCard" in msg:
            if self.trick_over:  # the first card of the next trick: the last one is gone
                self.gone |= set(self.trick) if self.forgets_tricks else set()
                self.trick, self.trick_over = [], False
            self.trick.append(msg["PlayedCard"])
            public.add(msg["PlayedCard"])
        elif kind == "Trick":
            if msg["WinningCard"] not in self.trick:
                raise LeakError(f"the trick won is {self.trick}: {line}")
            self.trick_over = True
        elif kind == "Trump" and "Card" in msg:
            public.add(msg["Card"])
        elif kind == "Meld":
            public |= set(msg["Hand"])
        elif kind == "Pile":
            public |= set(msg["Cards"])
        elif kind == "Setup" and "Partners" in msg:
            public |= set(msg["Partners"])
        elif kind == "Message" and (called := self.CALLED.search(msg["Message"])):
            public |= set(self.reader.text(called[1]))
        keys = set(msg) - ({"Hand"} if kind == "Meld" else set())
        keys -= {"Cards"} if kind == "Pile" else set()
        if keys & self.PRIVATE_KEYS:
            raise LeakError(f"a watcher is never told {sorted(keys & self.PRIVATE_KEYS)}: {line}")
        self.shown |= public
        hidden = [
            c for c in self.reader.named(msg) if c not in self.shown or c in self.gone - public
        ]
        if hidden:
            raise LeakError(f"a watcher sees {hidden}, which are not face up: {line}")
        if "WinningCard" in msg and msg["WinningCard"] not in self.trick:
            raise LeakError(f"WinningCard is not of the trick under way {self.trick}: {line}")
