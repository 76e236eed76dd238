"""The AI pool (bots/pool.py) at a real server over sockets on 127.0.0.1 (port 0): the
strong AI's moves are played by worker processes, and a game comes out the same, move
for move, as when the server plays them itself; a worker killed mid-decision is
replaced and its table goes on; a busy pool refuses new strong-AI tables (``ai_busy``)
but never a table already playing; a table that is gone has its asks dropped.

A worker stopped with SIGSTOP holds its ask for as long as a test needs (the pool sees
a decision under way); every wait is bounded."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import signal
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from hundred_server import games
from hundred_server.ai.pool import DEPTH, AIPool, PoolLimits
from hundred_server.config import AISettings, Listeners, Settings
from hundred_server.core.hub import Hub
from hundred_server.core.lobby import Lobby
from hundred_server.core.remote import AskBot, BuiltinAI, PoolSeat
from hundred_server.games.base import GameState, needs_deal
from hundred_server.games.kit.search import SearchBot, clock
from hundred_server.games.records import record_lines
from hundred_server.io.server import Server
from tests.support.hub_harness import answer_from_legal
from tests.support.live_server import eventually, start_server, stop_server
from tests.support.peer import Peer

GAME_TIMEOUT = 120.0
#: A budget no decision comes near (CPU seconds): the search is its fixed work only,
#: so its moves are the same in any process, however loaded the machine.
NO_CAP = 10.0

Message = dict[str, Any]

BUSY = (
    "the strong AI is busy (too many of its moves wait for it); ask for the naive AI "
    'instead ("AI":"naive" in your Game answer, or the word naive in text mode), or try '
    "again in a moment"
)


@contextlib.asynccontextmanager
async def serving(
    workers: int, queue: int | None = None, seed: str = "pool", depth: int = DEPTH
) -> AsyncIterator[Server]:
    """A server whose tables play the strong AI, in ``workers`` workers (0: in process),
    each sent ``depth`` asks at once (the tests that stop a worker send it one, so that
    it holds exactly the ask it is on)."""
    pool = PoolLimits(workers, queue, timeout=60.0, depth=depth) if workers else None
    ai = AISettings("strong", NO_CAP, pool)
    hub = Hub(seed_source=lambda: seed, ai=ai)
    server = Server(hub, Settings(listeners=Listeners("127.0.0.1", 0), ai=ai))
    await server.start()
    try:
        if server.pool is not None:
            await eventually(lambda: len(ready(server.pool)) == workers)
        yield server
    finally:
        await server.close()


def ready(pool: AIPool | None) -> list[int]:
    assert pool is not None
    return [s.worker.pid for s in pool._slots if s.worker is not None and s.ready]


def smallest_table(name: str) -> Message:
    """A ``Game`` answer for a table of ``name`` of the fewest seats, all AI but one."""
    spec = games.get(name)
    if not spec.custom:
        return {"Type": "Game", "Option": 1}
    seats = min(spec.seat_counts)
    return {"Type": "Game", "Option": len(spec.presets) + 1, "Seats": seats, "Bots": seats - 1}


async def create(server: Server, name: str, game: str, **extra: Any) -> Peer:
    peer = await Peer.greeted(server.port, name)
    await peer.send({"Type": "Hello", "Message": "create", "Game": game})
    await peer.send({**smallest_table(game), **extra})
    return peer


async def first_prompt(peer: Peer) -> Message:
    while True:
        msg = await peer.recv()
        if "Legal" in msg and "Seq" in msg:
            return msg


async def until_asked(server: Server, peer: Peer, table: int) -> None:
    """Answer ``peer``'s prompts (from Legal) until ``table``'s AI is asked for a move."""
    rng = random.Random(table)
    async with asyncio.timeout(GAME_TIMEOUT):
        while (at := server.hub.lobby.tables.get(table)) is None or at.asking is None:
            try:
                msg = await asyncio.wait_for(peer.recv(), 0.02)
            except TimeoutError:
                continue
            if "Legal" in msg and "Seq" in msg:
                await peer.send(answer_from_legal(msg, rng))


async def play_out(peer: Peer, rng: random.Random) -> None:
    """Answer every prompt from Legal (by ``rng``) until the game is over."""
    while not (await peer.recv()).get("GameOver"):
        msg = peer.messages[-1]
        if "Legal" in msg and "Seq" in msg:
            await peer.send(answer_from_legal(msg, rng))


async def a_game(name: str, workers: int) -> list[str]:
    """The record of a game of ``name``: one person (answering from a seeded generator)
    against the strong AI, played in ``workers`` workers."""
    async with serving(workers, seed=f"pool-{name}") as server:
        ann = await create(server, "ann", name)
        await eventually(lambda: 1 in server.hub.lobby.tables)
        game = server.hub.lobby.tables[1].game
        assert game is not None
        await asyncio.wait_for(play_out(ann, random.Random(name)), GAME_TIMEOUT)
        await ann.close()
        if server.pool is not None:
            assert server.pool.counts["decisions"] > 10
            assert server.pool.counts["stand_ins"] == 0
        assert game.is_over
        return record_lines(game)


@pytest.mark.parametrize("name", games.names())
@pytest.mark.asyncio
async def test_a_game_is_the_same_with_two_workers_as_in_process(name: str) -> None:
    in_process = await a_game(name, 0)
    pooled = await a_game(name, 2)
    assert pooled == in_process


def forced_ai_moves(name: str, game: GameState) -> tuple[int, int]:
    """The moves of the AI seats (all but seat 0) in ``game``, replayed from its seed
    and history: (all of them, those with one legal move only)."""
    spec = games.get(name)
    again = spec.new_game(game.players, None, game.flags)
    moves = forced = 0
    for entry in game.history:
        if not (isinstance(entry, tuple) and isinstance(entry[0], int)):
            continue  # a deal: dealt below, from the seed, as the table dealt it
        while needs_deal(again):
            again.deal(spec.seeded_deck(f"pool-{name}", again.round_index))
        seat, action = entry
        if seat != 0:
            moves += 1
            forced += len(again.legal_actions(seat)) == 1
        again.apply(seat, action)
    return moves, forced


@pytest.mark.asyncio
async def test_a_forced_move_is_played_by_the_table_not_asked_of_the_pool() -> None:
    """An AI seat with one legal move plays it at once: no search, no place in the
    pool's queue (the record is the same as in process: the test above)."""
    async with serving(1, seed="pool-whist") as server:
        ann = await create(server, "ann", "whist")
        await eventually(lambda: 1 in server.hub.lobby.tables)
        game = server.hub.lobby.tables[1].game
        assert game is not None
        await asyncio.wait_for(play_out(ann, random.Random("forced")), GAME_TIMEOUT)
        await ann.close()
        assert server.pool is not None
        moves, forced = forced_ai_moves("whist", game)
        assert forced > 0
        assert server.pool.counts["decisions"] == moves - forced


def ai_moves(game: GameState, seat: int) -> list[Any]:
    return [entry[1] for entry in game.history if isinstance(entry, tuple) and entry[0] == seat]


async def ask_pending(server: Server, table: int) -> None:
    """Wait until ``table``'s AI has been asked for a move."""
    await eventually(lambda: server.hub.lobby.tables[table].asking is not None)


@pytest.mark.asyncio
async def test_a_worker_killed_mid_decision_is_replaced_and_its_table_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, "hundred_server")
    async with serving(1) as server:
        pool = server.pool
        assert pool is not None
        [pid] = ready(pool)
        os.kill(pid, signal.SIGSTOP)  # it takes the ask and never answers it
        ann = await create(server, "ann", "hundert")
        await until_asked(server, ann, 1)
        await eventually(lambda: pool.busy_pids() == [pid])
        [slot] = pool._slots
        assert slot.job is not None
        view, table = slot.job.view, server.hub.lobby.tables[1]
        game = table.game
        assert game is not None
        played = len(ai_moves(game, 1))
        naive = games.get("hundert").bots["naive"]().act(view)
        os.kill(pid, signal.SIGKILL)
        await eventually(lambda: len(ai_moves(game, 1)) > played)
        assert ai_moves(game, 1)[played] == naive  # the naive AI's move, this once
        assert pool.counts["replaced"] == 1
        assert server.hub.lobby.stand_ins == {"hundert": 1}
        await eventually(lambda: len(ready(pool)) == 1)
        assert ready(pool) != [pid]
        await asyncio.wait_for(play_out(ann, random.Random(2)), GAME_TIMEOUT)
        assert game.is_over
        assert server.hub.lobby.stand_ins == {"hundert": 1}  # every other move the pool's
        assert pool.counts["decisions"] > 5
        await ann.close()
    logged = caplog.text
    assert (
        f"AI pool: worker {pid} replaced on table 1, seat 1: its worker was killed by signal 9"
        in logged
    )
    assert (
        "table 1, seat 1: the hundert strong AI cannot play this move: its worker was "
        "killed by signal 9; the naive AI plays it"
    ) in logged


@pytest.mark.asyncio
async def test_a_worker_killed_with_two_asks_sent_hands_the_second_to_its_successor() -> None:
    """``depth`` 2: the worker is stopped on ann's ask with bob's waiting in its pipe,
    then killed. Ann's move is the naive AI's; bob's goes back to the queue and the next
    worker plays the strong AI's move, the same as in process."""
    async with serving(1) as server:
        pool = server.pool
        assert pool is not None
        [pid] = ready(pool)
        os.kill(pid, signal.SIGSTOP)
        ann = await create(server, "ann", "hundert")
        await until_asked(server, ann, 1)
        bob = await create(server, "bob", "hundert")
        await until_asked(server, bob, 2)
        [slot] = pool._slots
        await eventually(lambda: len(slot.sent) == 2)
        assert pool.queued == 0
        first, second = slot.sent
        assert (first.job.table, second.job.table) == (1, 2)
        naive = games.get("hundert").bots["naive"]().act(first.job.view)
        assert second.job.builtin is not None
        strong = second.job.builtin.make().act(second.job.view)
        ann_game, bob_game = (server.hub.lobby.tables[t].game for t in (1, 2))
        assert ann_game is not None
        assert bob_game is not None
        ann_played, bob_played = len(ai_moves(ann_game, 1)), len(ai_moves(bob_game, 1))
        os.kill(pid, signal.SIGKILL)
        await eventually(
            lambda: (
                len(ai_moves(ann_game, 1)) > ann_played and len(ai_moves(bob_game, 1)) > bob_played
            )
        )
        assert ai_moves(ann_game, 1)[ann_played] == naive
        assert ai_moves(bob_game, 1)[bob_played] == strong
        assert pool.counts["replaced"] == 1
        assert pool.counts["stand_ins"] == 1
        assert server.hub.lobby.stand_ins == {"hundert": 1}
        for peer in (ann, bob):
            await peer.close()


@pytest.mark.asyncio
async def test_a_busy_pool_refuses_new_strong_tables_and_serves_those_playing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, "hundred_server")
    async with serving(1, queue=0, depth=1) as server:
        pool = server.pool
        assert pool is not None
        [pid] = ready(pool)
        os.kill(pid, signal.SIGSTOP)
        try:
            ann = await create(server, "ann", "hundert")
            await until_asked(server, ann, 1)
            await eventually(lambda: pool.busy_pids() == [pid])  # ann's table: the worker's
            bob = await create(server, "bob", "hundert")
            await until_asked(server, bob, 2)
            await eventually(lambda: pool.queued == 1)  # bob's: queued, one more than 0
            assert pool.full()
            cy = await create(server, "cy", "hundert")
            while (said := await cy.recv())["Type"] != "Error":
                assert "Legal" not in said
            assert said == {"Type": "Error", "Code": "ai_busy", "Message": BUSY}
            assert 3 not in server.hub.lobby.tables
            # The naive AI is there for the asking.
            await cy.send({**smallest_table("hundert"), "AI": "naive"})
            assert "Legal" in await first_prompt(cy)
        finally:
            os.kill(pid, signal.SIGCONT)
        # The tables already playing are served, in the order they asked.
        await eventually(lambda: pool.counts["decisions"] >= 2)
        assert not pool.full()
        await asyncio.wait_for(play_out(ann, random.Random(3)), GAME_TIMEOUT)
        await asyncio.wait_for(play_out(bob, random.Random(4)), GAME_TIMEOUT)
        assert pool.counts["stand_ins"] == 0
        dee = await create(server, "dee", "hundert")  # not busy now
        assert "Legal" in await first_prompt(dee)
        for peer in (ann, bob, cy, dee):
            await peer.close()
    assert "a new table of the strong AI refused: the AI pool is busy" in caplog.text


@pytest.mark.asyncio
async def test_a_table_that_is_gone_has_its_asks_dropped(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, "hundred_server")
    async with serving(1, depth=1) as server:
        pool = server.pool
        assert pool is not None
        answered: list[tuple[int, int, int]] = []
        answer = pool.answer

        def noted(
            table: int, seat: int, ask: int, choice: int | None, fault: str | None, action: Any
        ) -> None:
            answered.append((table, seat, ask))
            answer(table, seat, ask, choice, fault, action)

        pool.answer = noted
        [pid] = ready(pool)
        os.kill(pid, signal.SIGSTOP)
        try:
            ann = await create(server, "ann", "hundert")
            await until_asked(server, ann, 1)
            await eventually(lambda: pool.busy_pids() == [pid])
            bob = await create(server, "bob", "hundert")
            await until_asked(server, bob, 2)
            await eventually(lambda: pool.queued == 1)
            await bob.send(
                {"Type": "Hello", "Message": "quit"}
            )  # bob's table is abandoned: its ask goes
            await eventually(lambda: 2 not in server.hub.lobby.tables)
            assert pool.queued == 0
            await ann.send(
                {"Type": "Hello", "Message": "quit"}
            )  # ann's too, while the worker is on its ask
            await eventually(lambda: 1 not in server.hub.lobby.tables)
            assert pool.counts["dropped"] == 2
        finally:
            os.kill(pid, signal.SIGCONT)
        # The worker's late answer is dropped; the pool goes on with the next table.
        cy = await create(server, "cy", "hundert")
        await until_asked(server, cy, 3)
        await eventually(lambda: pool.counts["decisions"] == 1)
        assert [t for t, _, _ in answered] == [3]
        assert pool.counts["stand_ins"] == 0
        for peer in (ann, bob, cy):
            await peer.close()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_the_lobby_refuses_a_strong_table_only_when_its_pool_is_busy() -> None:
    """Sans I/O: ``ai_busy`` comes from the lobby's ``ai_busy`` (the server's pool)."""
    lobby = Lobby(ai=AISettings("strong", NO_CAP, PoolLimits(1)))
    busy = [True]
    lobby.ai_busy = lambda: busy[0]
    lobby.connect(1)
    lobby.handle(1, {"Type": "Hello", "Name": "ann"})
    lobby.handle(1, {"Type": "Hello", "Message": "create", "Game": "whist"})
    out, _ = lobby.handle(1, {"Type": "Game", "Option": 1})
    assert out[0] == (1, {"Type": "Error", "Code": "ai_busy", "Message": BUSY})
    assert not lobby.tables
    out, _ = lobby.handle(1, {"Type": "Game", "Option": 1, "AI": "naive"})
    assert lobby.tables[1].ai.name == "naive"
    busy[0] = False
    lobby.connect(2)
    lobby.handle(2, {"Type": "Hello", "Name": "bob"})
    lobby.handle(2, {"Type": "Hello", "Message": "create", "Game": "whist"})
    lobby.handle(2, {"Type": "Game", "Option": 1})
    assert lobby.tables[2].ai.name == "strong"
    # Its AI seats are the pool's: what they are asked goes to the pool.
    seat = lobby.tables[2].seats[1]
    assert seat is not None
    assert isinstance(seat.bot, PoolSeat)
    assert seat.bot.builtin == BuiltinAI("whist", "strong", (("budget", NO_CAP),))


@pytest.mark.asyncio
async def test_serve_plays_the_strong_ai_in_its_workers() -> None:
    """``serve --ai-workers 1``: a real server process starts its pool, a game against
    the strong AI is played there to its end, and the pool stops with the server."""
    process, port = start_server("--ai", "strong", "--ai-workers", "1", "--ai-timeout", "30")
    try:
        ann = await Peer.greeted(port, "ann")
        await ann.send({"Type": "Hello", "Message": "create", "Game": "hundert"})
        await ann.send(smallest_table("hundert"))
        await asyncio.wait_for(play_out(ann, random.Random(5)), GAME_TIMEOUT)
        await ann.close()
        process.send_signal(signal.SIGTERM)
        _out, err = process.communicate(timeout=10)
    finally:
        stop_server(process)  # killed if it did not stop
    assert process.returncode == 0
    logged = err.decode()
    assert "AI pool: 1 workers, up to 64 asks queued" in logged
    assert "0 played by the naive AI instead, 0 workers replaced" in logged


class Waiter(SearchBot):
    """A decision that waits 0.1 s of wall clock (as it would for a core, or in a
    queue), or works 0.1 s of its own CPU time (however busy the machine: bounded by
    30 s of wall clock), then checks its budget."""

    def act(self, view: Any) -> bool:
        start = clock()
        if view == "work":
            give_up = time.perf_counter() + 30.0
            while clock() - start < 0.1 and time.perf_counter() < give_up:
                pass  # 0.1 s of CPU time
        else:
            time.sleep(0.1)  # 0.1 s of wall clock, next to no CPU time
        return self.out_of_time(start)


def test_the_budget_counts_the_decisions_cpu_time_not_the_wall_clock() -> None:
    assert Waiter(0, budget=0.05, work=1, min_samples=1).act("wait") is False
    assert Waiter(0, budget=0.05, work=1, min_samples=1).act("work") is True
    assert Waiter(0, budget=None, work=1, min_samples=1).act("work") is False


class _HeldWorker:
    """A stand-in for a pool worker: it keeps what it is sent, and answers when told."""

    pid = 0

    def __init__(self) -> None:
        self.sent: list[int] = []
        self.answers: list[Message] = []

    def send(self, ask: int, view: Any, builtin: BuiltinAI | None) -> None:
        self.sent.append(ask)

    def read(self) -> list[Message]:
        answers, self.answers = self.answers, []
        return answers


@pytest.mark.asyncio
async def test_an_ask_an_ai_answer_brings_on_keeps_its_tables_place() -> None:
    """Table 1's person waits through two AI moves; table 2's person spoke after the
    first began: the second AI move of table 1 is played before table 2's, the person
    of table 1 waiting for one place in the queue, not two."""
    builtin = BuiltinAI("whist", "strong", ())
    pool = AIPool(PoolLimits(1, depth=1), lambda *answer: None)
    worker = _HeldWorker()
    slot = pool._slots[0]
    slot.worker, slot.ready = worker, True  # type: ignore[assignment]

    def ask(table: int, number: int) -> None:
        pool.ask(AskBot(table, 1, number, "", None, builtin))

    def answered(table: int, seat: int, number: int, *rest: Any) -> None:
        if (table, number) == (1, 1):
            ask(1, 2)  # table 1's next AI seat, asked as its answer is taken

    pool.answer = answered
    try:
        ask(1, 1)
        assert worker.sent == [1]
        ask(2, 1)
        ask(3, 1)
        assert pool.queued == 2
        worker.answers.append({"Ask": 1, "Choice": 0})
        pool._readable(slot, worker)  # type: ignore[arg-type]
        assert worker.sent == [1, 2]  # table 1's second ask, ahead of tables 2 and 3
        assert [entry[2].table for entry in sorted(pool._queue)] == [2, 3]
        worker.answers.append({"Ask": 2, "Choice": 0})
        pool._readable(slot, worker)  # type: ignore[arg-type]
        assert worker.sent == [1, 2, 1]
        assert slot.job is not None
        assert slot.job.table == 2
        assert pool.counts["decisions"] == 2
    finally:
        pool._cancel_timer(slot)


class _Clock:
    """A loop for a pool that starts no worker: a settable time, timers not run."""

    def __init__(self) -> None:
        self.now = 100.0

    def time(self) -> float:
        return self.now

    def call_later(self, delay: float, callback: Any, *args: Any) -> _Unrun:
        return _Unrun()


class _Unrun:
    """A timer that never runs."""

    def cancel(self) -> None:
        pass


def test_a_chain_keeps_its_place_for_chain_hold_at_most() -> None:
    """A table of AI seats alone asks on and on, each ask brought on by the last answer:
    after ``CHAIN_HOLD`` its place moves on with the time, and a table that asked
    meanwhile goes first."""
    builtin = BuiltinAI("whist", "strong", ())
    clock = _Clock()
    pool = AIPool(PoolLimits(1, depth=1), lambda *answer: None, loop=clock)  # type: ignore[arg-type]
    worker = _HeldWorker()
    slot = pool._slots[0]
    slot.worker, slot.ready = worker, True  # type: ignore[assignment]
    asks = iter(range(2, 100))

    def answered(table: int, *rest: Any) -> None:
        if table == 1:
            pool.ask(AskBot(1, 1, next(asks), "", None, builtin))  # the chain goes on

    pool.answer = answered
    pool.ask(AskBot(1, 1, 1, "", None, builtin))
    clock.now += 0.5
    pool.ask(AskBot(2, 1, 1, "", None, builtin))  # 0.5 s after table 1's chain began
    for elapsed in (0.2, 0.2):  # 0.7 and 0.9 s into the chain: table 1 keeps its place
        clock.now += elapsed
        worker.answers.append({"Ask": worker.sent[-1], "Choice": 0})
        pool._readable(slot, worker)  # type: ignore[arg-type]
        assert slot.job is not None
        assert slot.job.table == 1
    clock.now += 0.8  # 1.7 s in: the chain's place is 0.7 s in, after table 2's at 0.5 s
    worker.answers.append({"Ask": worker.sent[-1], "Choice": 0})
    pool._readable(slot, worker)  # type: ignore[arg-type]
    assert slot.job is not None
    assert slot.job.table == 2
    assert [entry[2].table for entry in pool._queue] == [1]


def _held_pool(depth: int) -> tuple[AIPool, _HeldWorker, list[tuple[int, int]]]:
    """A pool of one held worker, sent ``depth`` asks at once; the answers it gives, as
    (table, ask)."""
    clock = _Clock()
    answered: list[tuple[int, int]] = []
    pool = AIPool(
        PoolLimits(1, depth=depth),
        lambda table, seat, ask, *rest: answered.append((table, ask)),
        loop=clock,  # type: ignore[arg-type]
    )
    worker = _HeldWorker()
    slot = pool._slots[0]
    slot.worker, slot.ready = worker, True  # type: ignore[assignment]
    return pool, worker, answered


def test_a_worker_is_sent_two_asks_and_each_answer_sends_the_next() -> None:
    """With ``depth`` 2 the next ask waits in the worker's pipe; an answer sends the one
    after it, and a chain's next ask waits behind the one already sent."""
    builtin = BuiltinAI("whist", "strong", ())
    pool, worker, answered = _held_pool(2)
    slot = pool._slots[0]

    def chain(table: int, seat: int, ask: int, *rest: Any) -> None:
        answered.append((table, ask))
        if (table, ask) == (1, 1):
            pool.ask(AskBot(1, 2, 2, "", None, builtin))  # table 1's next AI seat

    pool.answer = chain
    for table in (1, 2, 3):
        pool.ask(AskBot(table, 1, 1, "", None, builtin))
        pool.loop.now += 0.1  # type: ignore[attr-defined]
    assert worker.sent == [1, 1]  # tables 1 and 2: the worker's; table 3 waits
    assert [entry[2].table for entry in pool._queue] == [3]
    assert [sent.job.table for sent in slot.sent] == [1, 2]
    assert slot.job is not None
    assert slot.job.table == 1
    worker.answers.append({"Ask": 1, "Choice": 0})
    pool._readable(slot, worker)  # type: ignore[arg-type]
    # table 1's next ask goes ahead of table 3's, behind table 2's already sent
    assert answered == [(1, 1)]
    assert [sent.job.table for sent in slot.sent] == [2, 1]
    assert [entry[2].table for entry in pool._queue] == [3]
    assert pool.counts["decisions"] == 1
    assert slot.timer is not None  # the worker is timed on table 2's ask now


def test_depth_one_sends_the_next_ask_only_after_the_answer() -> None:
    builtin = BuiltinAI("whist", "strong", ())
    pool, worker, _answered = _held_pool(1)
    for table in (1, 2):
        pool.ask(AskBot(table, 1, 1, "", None, builtin))
    assert worker.sent == [1]
    assert pool.queued == 1


def test_a_replaced_worker_gives_back_the_asks_it_had_not_begun() -> None:
    """The worker dies with two asks sent: the one it was on is answered with the fault
    (the naive AI plays it), the other goes back to the queue in its place, ahead of
    later ones, for the next worker."""
    builtin = BuiltinAI("whist", "strong", ())
    pool, worker, answered = _held_pool(2)
    slot = pool._slots[0]
    # no process to kill or start: the slot is only emptied
    pool._start = lambda slot: None  # type: ignore[method-assign]

    def stop(slot: Any) -> None:
        slot.worker, slot.ready = None, False

    pool._stop = stop  # type: ignore[method-assign]
    for table in (1, 2):
        pool.ask(AskBot(table, 1, 1, "", None, builtin))
    pool.loop.now += 0.5  # type: ignore[attr-defined]
    pool.ask(AskBot(3, 1, 1, "", None, builtin))
    assert worker.sent == [1, 1]
    pool._replace(slot, "its worker was killed by signal 9")
    assert answered == [(1, 1)]
    assert pool.counts["stand_ins"] == 1
    assert pool.counts["replaced"] == 1
    assert not slot.sent
    assert [entry[2].table for entry in sorted(pool._queue)] == [2, 3]


def test_a_released_table_drops_the_answer_of_an_ask_waiting_in_the_pipe() -> None:
    builtin = BuiltinAI("whist", "strong", ())
    pool, worker, answered = _held_pool(2)
    slot = pool._slots[0]
    for table in (1, 2, 3):
        pool.ask(AskBot(table, 1, 1, "", None, builtin))
    pool.release(2)  # its ask is in the worker's pipe, not begun
    assert pool.counts["dropped"] == 1
    assert [sent.dropped for sent in slot.sent] == [False, True]
    worker.answers.extend([{"Ask": 1, "Choice": 0}, {"Ask": 1, "Choice": 0}])
    pool._readable(slot, worker)  # type: ignore[arg-type]
    assert answered == [(1, 1)]  # table 2's answer came and was dropped
    assert pool.counts["decisions"] == 1
    assert [sent.job.table for sent in slot.sent] == [3]


def test_a_pool_sends_a_worker_at_least_one_ask() -> None:
    with pytest.raises(ValueError, match="at least one ask at a time, not 0"):
        PoolLimits(1, depth=0)
