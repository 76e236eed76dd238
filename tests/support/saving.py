"""A hub whose games are saved as a server saves them, a server restarted on its store,
and a game played to its end as the store keeps it."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from hundred_server.core.hub import Command
from hundred_server.games.records import replay
from hundred_server.store import GameStore, StoredGame
from tests.support.hub_harness import Client, Harness, Message, play_until_over


class SavingHarness(Harness):
    """A durable hub whose writes are saved before each batch is delivered, as the
    server does."""

    def __init__(self, prefix: str, store: GameStore, ai: str = "naive") -> None:
        super().__init__(prefix, durable=True, ai=ai)
        self.store = store

    def apply(self, commands: Iterable[Command]) -> None:
        self.store.write(self.hub.lobby.journal.take())
        super().apply(commands)


def final_score(lines: list[str]) -> dict[str, object]:
    return list(replay(lines))[-1]


def mid_game(
    store: GameStore,
    prefix: str,
    start: Callable[[SavingHarness], Client],
    answers: int,
    rng: random.Random,
) -> tuple[SavingHarness, Client, Message]:
    """A hub saving to ``store``, where ``start`` seats a person at a table whose game it
    plays on for ``answers`` answers from ``Legal``: the hub, the person, and the prompt
    the person has then."""
    harness = SavingHarness(prefix, store)
    client = start(harness)
    for _ in range(answers):
        client.answer(rng)
    prompt = client.pending()
    assert prompt is not None
    return harness, client, prompt


def restarted(
    store: GameStore, reopen: Callable[[], GameStore], prefix: str, ai: str = "naive"
) -> tuple[GameStore, SavingHarness]:
    """The server restarted: ``store`` closed (the process dies, only the store is
    left), opened again by ``reopen``, and a new hub on it that restored the games in
    play."""
    store.close()
    store = reopen()
    harness = SavingHarness(prefix, store, ai=ai)
    harness.hub.lobby.restorer.restore(store.games("playing"), store.last_id())
    return store, harness


def played_out_and_stored(
    client: Client, rng: random.Random, store: GameStore, answers: int
) -> StoredGame:
    """``client``'s game played to its end (it answering from ``Legal``, ``answers`` at
    most), as ``store`` holds it then: over, and its record replays to the result the
    client was told."""
    play_until_over([client], rng, answers)
    over = client.game_over()
    assert over is not None
    stored = store.games()[0]
    assert stored.state == "over"
    assert final_score(stored.lines) == {
        "Type": "Score",
        "GameOver": True,
        "Winner": over["Winner"],
        "Score": over["Score"],
    }
    return stored
