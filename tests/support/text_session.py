"""A whole text-mode session as a person at netcat sees it, played by fixed choices:
connect (the JSON greeting), ``help``, a name, a table against the naive AI, ``help``
at the table, the game to its end (each prompt answered by what the screen shows, a
card typed exactly as shown or by its position), ``score`` and ``partner`` on the
way, and ``quit``. The golden transcripts (tests/protocol/golden/) are these sessions.

``person_answer`` reads a prompt as a person would: the line ``> ...`` and the hand
shown above it; nothing of the wire.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from hundred_server import games
from tests.support.hub_harness import Client, Harness

#: A hand as shown: ``1:5♥  2:10♠`` (Rook: ``1:Black 10  2:Rook``).
_ENTRY = re.compile(r"(\d+):(.+?)(?=\s{2}\d+:|\s{3}\(|$)")
#: Each game's option 1 (against the AI, starting at once) and, when the first
#: bid prompt of a hand offers it, the bid a person makes (else they pass).
OPENING_BID = {"hundredandten": "bid 15", "spades": "bid 3"}


def hand_shown(line: str) -> list[str]:
    """The cards of a ``Your hand: 1:...`` line, as shown, in order."""
    body = line.removeprefix("Your hand: ")
    return [card.strip() for _, card in _ENTRY.findall(body)]


def offered(ask: str, game: str) -> list[str]:
    """The cards a play prompt offers, as shown: ``> play one of: 5♥ 10♠   (...)``
    (Rook's names have spaces: ``Black 10, Rook``)."""
    body = ask.removeprefix("> play one of: ").split("   (")[0]
    return [c.strip() for c in (body.split(", ") if game == "rook" else body.split(" "))]


@dataclass
class Person:
    """A person's fixed choices: the n-th card played goes by position every third
    time, else typed as shown."""

    game: str
    plays: int = 0
    said: dict[str, int] = field(default_factory=dict)

    def answer(self, lines: list[str]) -> str | None:
        """A command for the last prompt of ``lines`` (None: no game prompt)."""
        asks = [i for i, line in enumerate(lines) if line.startswith("> ")]
        if not asks:
            return None
        at = asks[-1]
        ask = lines[at]
        hands = [line for line in lines[:at] if line.startswith("Your hand: 1:")]
        hand = hand_shown(hands[-1]) if hands else []
        if ask.startswith("> your bid ("):
            options = ask[len("> your bid (") : ask.index(")")]
            bid = OPENING_BID.get(self.game)
            if bid is not None and (self.game == "spades" or bid.split()[1] in options.split(", ")):
                return bid
            return "pass" if "pass" in options else "bid 80"
        if ask.startswith("> name trump"):
            return "trump " + hand[0][-1] if hand else "trump hearts"
        if ask.startswith("> discard"):
            return f"discard {hand[-1]}" if hand else "discard none"
        if ask.startswith("> set up"):
            count = int(re.search(r"discard (\d+) card", ask)[1])  # type: ignore[index]
            calls = re.search(r"call (\d+) partner", ask)
            colour = hand[0].split()[0].lower() if hand else "red"
            positions = " ".join(str(n) for n in range(len(hand) - count + 1, len(hand) + 1))
            called = "" if calls is None else " call " + " ".join(_uncalled(hand)[: int(calls[1])])
            return f"setup {colour} {positions}{called}"
        if ask.startswith("> play one of: "):
            self.plays += 1
            card = offered(ask, self.game)[0]
            if self.plays % 3 == 0 and card in hand:
                return f"play {hand.index(card) + 1}"
            return f"play {card}"
        return None


def _uncalled(hand: list[str]) -> list[str]:
    """Rook cards by name that are not in ``hand``, in deck order (to call)."""
    names = [f"{c} {n}" for c in ("Black", "Green", "Red", "Yellow") for n in (14, 13, 1)]
    return [n for n in names if n not in hand]


def over(line: str) -> bool:
    return line.startswith("Game over.")


@dataclass
class Session:
    """A text-mode session through a ``Harness``: every line both ways, in order."""

    harness: Harness
    client: Client
    transcript: list[str] = field(default_factory=list)

    def say(self, line: str) -> list[str]:
        self.transcript.append(f"<-- {line}")
        shown = self.client.say(line)
        self.transcript += [f"--> {s}" for s in shown]
        return shown

    def wait(self, seconds: float = 1.0) -> list[str]:
        """Let the clock run (the AI's paced moves, grace periods); what it brought."""
        self.harness.advance(seconds)
        shown = self.client.take_text()
        self.transcript += [f"--> {s}" for s in shown]
        return shown


def connect(harness: Harness) -> Session:
    """A main-port connection; its JSON greeting as the person reads it."""
    client = harness.connect()
    session = Session(harness, client)
    for raw in client.raw:
        session.transcript += [f"--> {line}" for line in raw.decode().splitlines()]
    client.take()
    return session


def play_to_the_end(
    session: Session,
    person: Person,
    shown: list[str],
    extra: Callable[[int, list[str]], list[str]],
) -> list[str]:
    """Answer every prompt until the game is over; ``extra(n, seen)``: commands to
    type before the n-th answer, every line seen so far being ``seen`` (``score``,
    ``hand``...). Every line seen, from ``shown`` on."""
    seen = list(shown)
    for turn in range(5000):
        if any(over(line) for line in shown):
            return seen
        command = person.answer(shown)
        if command is None:
            shown = session.wait()
            seen += shown
            continue
        for typed in extra(turn, seen):
            seen += session.say(typed)
        shown = session.say(command)
        assert not any(line.startswith("! ") for line in shown), (command, shown)
        seen += shown
    raise AssertionError("no game over after 5000 turns")


def whole_session(game: str, notation: str | None = None) -> list[str]:
    """The golden session of ``game``: every line both ways (``notation``: typed first
    if given)."""
    harness = Harness(f"golden-{game}")
    session = connect(harness)
    if notation is not None:
        session.say(f"notation {notation}")
    session.say("help")
    session.say("name ann")
    shown = session.say(f"create {game} 1")
    session.say("help")
    person = Person(game)
    view = games.get(game).text
    partnership = "partner" in getattr(view, "commands", frozenset())

    scored: list[bool] = []

    def extra(turn: int, seen: list[str]) -> list[str]:
        if turn == 3:
            return ["hand", "score", *(["partner"] if partnership else []), "notation"]
        if not scored and any(re.search(r"\b(?:Scores|Balances): ", line) for line in seen):
            scored.append(True)
            return ["score"]  # once a hand has been scored
        return []

    play_to_the_end(session, person, shown, extra)
    session.say("quit")
    assert session.client.closed
    return session.transcript
