"""One table: seats, the game, prompts and re-prompts, AI seats (no I/O).

A table is fed with what connections say (``sit``, ``answer``, ``leave``, ``drop``,
``reclaim``) and with the passing of time (``tick``), and returns what each connection
must be told, as ``(conn, message)`` pairs; the caller delivers them. Chance is an
input: each round's deck comes from the table's seed. Time is an input too: the table
reads its ``clock`` and says when it next needs a ``tick`` (``deadline``).

A person's seat is held by a connection and owned by a token (its SHA-256 here; the
token itself only ever goes to its owner). When the connection is lost mid-game, the
seat waits for its owner for ``grace`` seconds (the table waits too, if it is that
seat's turn); then an AI plays it until the owner reclaims it with the token. With a
turn clock (``turn_timeout``), a person who does not answer in time has the AI's move
played for them.

Who is told what is decided by the game's wire module (``tell``, ``prompt``),
so a seat's cards reach only that seat.

Watchers (``watch``, ``unwatch``) are connections that sit nowhere: they are told what
a seat that holds no cards would be (the game's ``tell`` and ``snapshot`` for the seat
None, and the prompts' public copies), and everything the table tells its people
alike (the ``Table`` message while it waits, who left, whose time ran out). They never
answer, hold no token, and are never stored: a table restored after a restart has
none.

A table whose AI searches (``pace``: the strong AI, which may think up to its budget a
move) makes at most one AI move a step: after a person's answer, a tick, or a seat
handed to the AI, it plays one AI move and, if another AI seat is to act, is due again
at once (``deadline``) and plays the next at the next ``tick``. So the server answers
its other connections between those moves, and a table the AI plays to its end (every
person away) never holds the event loop for more than one move's thinking. Other AIs
answer in microseconds and play on to the next person at once.

An AI seat played by a plug-in bot (``PluginSeat``) is never called: when it must act,
the table asks for its move (``AskBot``, taken with ``take_bot_requests``) and goes on
when ``bot_answer`` brings it (core/remote.py). So is a seat of the strong AI when the
server runs it in its pool of AI workers (``PoolSeat``, never paced here). Nobody is
prompted meanwhile, as for any AI seat; the asks have their own count, so ``Seq`` still
goes one up per prompt.

A table's parts: what it holds and the queries on it (its seats and their tokens, its
watchers, its clocks: ``TableSeats``, core/table_seats.py), the asks of its plug-in
seats (``PluginAsks``, core/table_asks.py), and here the ``Table`` that seats people and
watchers and plays the game. The names stay importable from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from hundred_server.core import driver
from hundred_server.core.fairness import commit_message
from hundred_server.core.names import fold
from hundred_server.core.remote import PoolSeat
from hundred_server.core.seat_views import add_view, read_answer
from hundred_server.core.table_asks import PluginAsks, is_plugin
from hundred_server.core.table_seats import (
    Outgoing,
    RestoredGame,
    Seat,
    TableAI,
    TableOptions,
    TableSeats,
    TableState,
)
from hundred_server.games.base import WATCHER, Bot, GameSpec, is_over, needs_deal
from hundred_server.protocol.errors import HundredError, Refused
from hundred_server.protocol.wire import Message, error, field_int, message

__all__ = [
    "Outgoing",
    "RestoredGame",
    "Seat",
    "Table",
    "TableAI",
    "TableOptions",
    "TableSeats",
    "TableState",
]


class Table(PluginAsks):
    """A table of a game: seating its people, watchers, the game itself (prompts and
    re-prompts with ``Seq``, AI moves, the turn clock), and who is told what."""

    @classmethod
    def restored(
        cls,
        table_id: int,
        name: str,
        spec: GameSpec,
        seed: str,
        record: RestoredGame,
        options: TableOptions,
    ) -> Table:
        """A table whose game is under way, from the store after a restart: every
        person's seat waits for its owner's token (``grace``), AI seats play on (see
        ``resume``); nobody watches it yet. Its ``saved`` record lines are in the store,
        so it stays there: it counts as played in (``touched``)."""
        game = record.game
        options = replace(options, flags=game.flags)  # the record keeps the table options
        table = cls(table_id, name, spec, len(record.seats), (), seed, options)
        away = options.clock() + options.grace
        table.seats = [
            Seat(n, token=t, away_until=away) if t is not None else Seat(n, bot=table.ai.make())
            for n, t in record.seats
        ]
        table.state = TableState.PLAYING
        table.game, table.seq = game, record.seq
        table.saved, table.touched = record.saved, True
        return table

    def resume(self) -> Outgoing:
        """Carry a restored game on: deal if a round is due, let AI seats act; a person
        to act keeps the prompt (and ``Seq``) they had."""
        game = self.game
        assert game is not None
        actor = game.to_act
        occupant = None if actor is None else self.seats[actor]
        if needs_deal(game) or (occupant is not None and occupant.bot is not None):
            return self._advance([])
        if is_over(game):
            self.state = TableState.OVER
        elif self.turn_timeout is not None:
            self.turn_deadline = self.clock() + self.turn_timeout
        return []

    def note_saved(self, lines: int) -> None:
        """``lines`` more record lines of the game are on their way to the store."""
        self.saved += lines

    def stop(self) -> None:
        """The table is gone from the lobby before its game ended (it broke, or another
        instance of the site plays it now): its game is over here."""
        self.state = TableState.OVER

    def pending_prompt(self, conn: int) -> Message | None:
        seat = self.seat_of(conn)
        if seat is None or self.game is None or self.state is not TableState.PLAYING:
            return None
        return self._prompt(seat)

    # ------------------------------------------------------------------ seating

    def sit(
        self, conn: int, name: str, token: str | None = None, views: bool = False
    ) -> tuple[int, Outgoing]:
        """Seat a person (owning the seat by ``token``, a hash; ``views``: its prompts
        carry its view) in the lowest free seat; starts the game when the table is full."""
        if self.state is not TableState.WAITING or self.free == 0:
            raise Refused(f"table {self.id} has no free seat", "table_full")
        taken = {fold(s.name) for s in self.seats if s is not None}  # as people read them
        unique, n = name, 2
        while fold(unique) in taken:
            unique, n = f"{name} ({n})", n + 1
        seat = self.seats.index(None)
        self.seats[seat] = Seat(unique, conn=conn, token=token, views=views)
        if self.free:
            return seat, self._to_people(self.info())
        return seat, self._start()

    def leave(self, conn: int, keep: bool = False) -> Outgoing:
        """A person quits. Waiting: the seat is freed. Playing: an AI takes it over at
        once (the token can still reclaim it); if no person holds or awaits a seat any
        more, the game is abandoned, unless ``keep`` (a person who left for the lobby:
        the AI plays the game on)."""
        seat = self.seat_of(conn)
        if seat is None:
            return []
        occupant = self.seats[seat]
        assert occupant is not None
        if self.state is TableState.WAITING:
            self.seats[seat] = None
            return self._to_people(self.info())
        occupant.conn = None
        if self.state is TableState.OVER:
            return []
        awaited = (s for s in self.seats if s is not None and s.away_until is not None)
        if not keep and not self.people() and next(awaited, None) is None:
            self.state = TableState.OVER  # nobody left to play for
            return []
        return self._hand_to_ai(seat, f"{occupant.name} left; an AI plays seat {seat} now")

    def drop(self, conn: int) -> Outgoing:
        """A person's connection is lost. Waiting: the seat is freed. Playing: the seat
        waits ``grace`` seconds for its owner to reclaim it, then an AI plays it."""
        seat = self.seat_of(conn)
        if seat is None:
            return []
        occupant = self.seats[seat]
        assert occupant is not None
        if self.state is not TableState.PLAYING or self.grace <= 0:
            return self.leave(conn)
        occupant.conn = None
        occupant.away_until = self.clock() + self.grace
        return self._to_people(
            message(
                f"{occupant.name} lost their connection; seat {seat} waits {self.grace:g} s "
                "for them to come back"
            )
        )

    def reclaim(
        self, conn: int, token: str, views: bool = False
    ) -> tuple[int, int | None, Outgoing]:
        """The owner of ``token`` (a hash) takes their seat back on connection ``conn``.

        Returns the seat, the connection that held it until now (if any; it no longer
        does), and what the others are told. The new holder's snapshot and prompt come
        from ``rejoin``.
        """
        seat = self.owner_of(token)
        if seat is None:
            raise Refused("no game under way has a seat for that token", "bad_token")
        occupant = self.seats[seat]
        assert occupant is not None
        previous = occupant.conn
        occupant.conn, occupant.bot, occupant.away_until = conn, self._struck_bot(seat), None
        occupant.views = views
        if seat == self._actor() and self.turn_timeout is not None and self.turn_deadline is None:
            self.turn_deadline = self.clock() + self.turn_timeout  # a fresh clock
        text = message(f"{occupant.name} is back at seat {seat}")
        out = [(c, text) for c in self.audience() if c != conn]
        waited = self.ai_due is not None and seat == self._actor()
        if waited or (self.asking is not None and self.asking[0] == seat):
            # Its plug-in was asked for this move (the answer is stale now), or the
            # AI's move for it was due at the next tick: the others get the prompt they
            # get whenever a person is to act (the owner gets it from ``rejoin``).
            self.asking = self.ai_due = None
            out += [(c, m) for c, m in self._prompt_people() if c != conn]
        return seat, previous, out

    def rejoin(self, seat: int | None) -> list[Message]:
        """What the holder of ``seat`` needs to carry on (None: what a watcher needs to
        start): the table, its commitment to the seed (``Commit``), a snapshot of the
        game as the seat knows it, and the pending prompt."""
        assert self.game is not None
        out = [
            self.info(),
            commit_message(self.id, self.game_name, self.seed),
            self.spec.wire.snapshot(self.game, seat, self.id),
        ]
        prompt = self._prompt(seat)
        if prompt is not None:
            out.append(prompt)
        return out

    # ------------------------------------------------------------------ watching

    def watch(self, conn: int, most: int) -> Outgoing:
        """``conn`` watches the table (at most ``most`` do at once): it is sent the
        ``Table`` and, once the game is under way, the ``Commit``, the game's public
        snapshot and the pending prompt's public copy. At a table that waits, everyone
        there gets the new ``Table`` (its ``Watchers`` count)."""
        if self.state is TableState.OVER:
            raise Refused(f"no table {self.id} to watch", "no_such_table")
        if not self.watchable:
            raise Refused(f"table {self.id} takes no watchers", "no_watchers")
        if len(self.watchers) >= most:
            raise Refused(
                f"table {self.id} has {len(self.watchers)} watchers, the most it may; "
                "try again later",
                "too_many_watchers",
            )
        if conn in self.watchers or self.seat_of(conn) is not None:
            raise Refused(f"you are at table {self.id} already", "not_now")
        self.watchers.append(conn)
        if self.state is TableState.WAITING:
            return self._to_people(self.info())
        return [(conn, m) for m in self.rejoin(None)]

    def unwatch(self, conn: int) -> Outgoing:
        """``conn`` watches no more (it left, or its connection is gone); at a table
        that waits, the others get the new ``Table``."""
        if conn not in self.watchers:
            return []
        self.watchers.remove(conn)
        if self.state is TableState.WAITING:
            return self._to_people(self.info())
        return []

    def tick(self) -> Outgoing:
        """Time has passed: hand waiting seats whose grace is over to an AI, and play
        the AI's move for a person whose turn clock ran out."""
        if self.state is not TableState.PLAYING or self.game is None:
            return []
        now = self.clock()
        out: Outgoing = []
        if self.ai_due is not None and self.ai_due <= now:
            out += self._advance([])  # the next AI move
            if is_over(self.game):
                return out
        for seat, occupant in enumerate(self.seats):
            away_until = None if occupant is None else occupant.away_until
            if occupant is not None and away_until is not None and away_until <= now:
                occupant.away_until = None
                if not self.touched and not self._awaited():
                    self.state = TableState.OVER  # abandoned: nobody played in it
                    return out
                text = (
                    f"{occupant.name} did not come back in {self.grace:g} s; an AI "
                    f"plays seat {seat} until they do"
                )
                out += self._hand_to_ai(seat, text)
                if is_over(self.game):
                    return out
        if self.turn_deadline is not None and self.turn_deadline <= now:
            actor = self._actor()
            assert actor is not None
            stand_in: list[Bot | None] = [None] * len(self.seats)
            stand_in[actor] = self.spec.bot()
            at = len(self.game.history)
            events = driver.step(self.game, self.spec, self.seed, stand_in) or []
            name = self.names()[actor]
            text = f"{name} ran out of time; the server played for seat {actor}"
            out += self._to_people(message(text + self._strike(actor, at)))
            out += self._advance(events)
        return out

    def _hand_to_ai(self, seat: int, text: str) -> Outgoing:
        occupant = self.seats[seat]
        assert occupant is not None
        occupant.bot = self.ai.make()
        out = self._to_people(message(text))
        if self._actor() == seat:
            out += self._advance([])
        return out

    # ------------------------------------------------------------------ playing

    def answer(self, conn: int, msg: Message) -> Outgoing:
        """A person's answer to a prompt (or a pre-pass / unpass)."""
        seat = self.seat_of(conn)
        game = self.game
        if seat is None or game is None or self.state is not TableState.PLAYING:
            raise Refused("no game is under way at your table", "not_now")
        try:
            playerid = field_int(msg, "Playerid")
            if playerid is not None and playerid != seat:
                raise Refused(f"you play seat {seat}, not Playerid {playerid}", "not_your_seat")
            seq = field_int(msg, "Seq")
            if seq is not None and seq != self.seq:
                raise Refused(f"Seq {seq} is stale: the prompt is Seq {self.seq}", "stale_seq")
            action = read_answer(self.spec, game, seat, msg)
            to_act, at = game.to_act, len(game.history)
            events = game.apply(seat, action)
        except HundredError as exc:
            return self._refuse(conn, seat, exc)
        self.touched = True
        if self.bot_clock is not None and seat == to_act:
            self.bot_clock.answered(seat, self.clock(), at)
        if seat != to_act and game.to_act == to_act and not is_over(game):
            # An action out of turn that the rules took (a pre-pass or unpass in
            # Hundred and Ten) leaves the turn where it was: the same prompt stands.
            return self._tell(events)
        self.turns += 1
        return self._advance(events)

    def _refuse(self, conn: int, seat: int, exc: HundredError) -> Outgoing:
        out: Outgoing = [(conn, error(exc.code, exc.message))]
        again = self._prompt(seat)
        if again is not None:
            out.append((conn, again))
        return out

    def _prompt(self, seat: int | None) -> Message | None:
        """The pending prompt as ``seat`` sees it, with the time left on the clock."""
        assert self.game is not None
        msg = self.spec.wire.prompt(self.game, seat, self.seq)
        if msg is not None and self.turn_deadline is not None:
            msg["TimeLeft"] = max(0.0, round(self.turn_deadline - self.clock(), 1))
        if msg is not None and seat is not None and "Legal" in msg:
            add_view(msg, self.spec, self.game, seat, self.seats[seat])
        return msg

    def _start(self) -> Outgoing:
        self.state = TableState.PLAYING
        names = [s.name for s in self.seats if s is not None]
        self.game = self.spec.new_game(names, None, self.flags)  # dealt from the seed
        roster = ", ".join(
            f"{s.name}{'' if s.is_person else ' (AI)'}" for s in self.seats if s is not None
        )
        out = self._to_people(self.info())
        out += self._to_people(message(f"Table {self.id} ({self.name}) starts: {roster}"))
        # Before the first deal: the seed is bound now and revealed when the game ends.
        out += self._to_people(commit_message(self.id, self.game_name, self.seed))
        return out + self._advance([])

    def _advance(self, events: list[Any]) -> Outgoing:
        """Deal when a round starts, let AI seats act, then prompt the person to act."""
        game = self.game
        assert game is not None
        # People, and plug-ins that are not benched, stop the driver: people are
        # prompted and plug-ins asked, below.
        bots = [None if s is None or is_plugin(s.bot) else s.bot for s in self.seats]
        self.ai_due = None
        moved = False
        while True:
            actor = game.to_act
            if actor is not None and bots[actor] is None:  # a person, or asked elsewhere
                only = self._forced(actor)
                if only is None:
                    break
                events += game.apply(actor, only)
                continue
            if actor is not None and moved and self.ai.pace:
                self.ai_due = self.clock()  # the next AI move, at the next tick
                break
            more = driver.step(game, self.spec, self.seed, bots)
            if more is None:
                break  # over
            events += more
            moved = moved or actor is not None
        out = self._tell(events)
        self.turn_deadline = None
        if is_over(game):
            self.state = TableState.OVER
            return out
        if self.ai_due is not None:
            return out
        actor = game.to_act
        assert actor is not None
        if self._plugin_at(actor) is not None:
            self._ask(actor)
            return out
        return out + self._prompt_people()

    def _forced(self, seat: int) -> Any | None:
        """The move of a seat the AI pool plays, when it has one legal move only: played
        here, as the pool's AI would play it, without a search or an ask."""
        occupant = self.seats[seat]
        if occupant is None or not isinstance(occupant.bot, PoolSeat):
            return None
        assert self.game is not None
        legal = self.game.legal_actions(seat)
        return legal[0] if len(legal) == 1 else None

    def _prompt_people(self) -> Outgoing:
        """A person is to act: the next ``Seq``, the turn clock, everyone's prompt."""
        game = self.game
        assert game is not None
        self.seq += 1
        if self.bot_clock is not None and game.to_act is not None:
            self.turn_deadline = self.bot_clock.deadline(game.to_act, self.clock())
        elif self.turn_timeout is not None:
            self.turn_deadline = self.clock() + self.turn_timeout
        out: Outgoing = []
        public = self._prompt(None)  # one object for all but the actor, watchers too
        assert public is not None
        for seat, conn in self.people():
            prompt = self._prompt(seat) if seat == game.to_act else public
            assert prompt is not None
            out.append((conn, prompt))
        return out + [(conn, public) for conn in self.watchers]

    def _tell(self, events: Sequence[Any]) -> Outgoing:
        out: Outgoing = []
        if not events:
            return out
        assert self.game is not None
        people = self.people()
        seats: list[int | None] = [seat for seat, _ in people]
        if self.watchers:
            seats.append(WATCHER)
        told = self.spec.wire.tell(events, seats, self.game.players)
        for seat, conn in people:
            out += [(conn, m) for m in told[seat]]
        for conn in self.watchers:
            out += [(conn, m) for m in told[WATCHER]]
        return out
