"""Rook and Hundert over real sockets on 127.0.0.1 (port 0): 3-seat and 6-seat Rook
tables start and finish, people and AI mixed; a Hundert table with the Feder option
plays to the end; every stream is valid against the schema and no finished Rook trick
is seen again once the next trick starts. Every wait is bounded."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from hundred_server.protocol.schema import validate_server_message
from tests.games.rook.test_rook_wire import TrickWatch
from tests.io.test_server import GAME_TIMEOUT, play_to_the_end, running
from tests.support.hub_harness import is_prompt
from tests.support.peer import Peer

Message = dict[str, Any]


def check_streams(peers: list[Peer]) -> None:
    """Every message is valid, and no seat sees a finished Rook trick again."""
    for seat, peer in enumerate(peers):
        watch = TrickWatch()
        for msg in peer.messages:
            validate_server_message(msg)
            watch.read(msg, f"person {seat}")


async def create(peer: Peer, game: str, option: Message) -> None:
    await peer.create({"Type": "Game", **option}, game)
    await peer.until(lambda m: m["Type"] == "Table")


async def seat_people(port: int, game: str, option: Message, names: list[str]) -> list[Peer]:
    """People at one new table: the first creates it, the others join it."""
    people = [await Peer.greeted(port, name) for name in names]
    await create(people[0], game, option)
    for peer in people[1:]:
        await peer.send({"Type": "Join", "Table": 1})
        await peer.until(lambda m: m["Type"] == "Table")
    return people


async def play_all(people: list[Peer]) -> None:
    await asyncio.gather(*(play_to_the_end(p, random.Random(i)) for i, p in enumerate(people)))


def seat_of(peer: Peer) -> int:
    seat: int = next(m for m in peer.messages if m["Type"] == "Seat")["Playerid"]
    return seat


def over(peer: Peer) -> Message:
    return next(m for m in peer.messages if m.get("GameOver"))


@pytest.mark.asyncio
async def test_three_people_at_a_3_seat_rook_table_finish_a_game() -> None:
    async with running() as server, asyncio.timeout(GAME_TIMEOUT * 3):
        option = {"Option": 7, "Seats": 3, "Bots": 0, "Name": "three"}
        people = await seat_people(server.port, "rook", option, ["ann", "bob", "cy"])
        await play_all(people)
        check_streams(people)
        ends = [over(p) for p in people]
        assert len({(e["Winner"], tuple(e["Score"])) for e in ends}) == 1
        assert [e["Win"] for e in ends].count(True) == 1
        assert max(ends[0]["Score"]) >= 500
        for peer in people:
            deal = next(m for m in peer.messages if m["Type"] == "Deal")
            assert (deal["Playerid"], len(deal["Hand"])) == (seat_of(peer), 13)
            await peer.close()


@pytest.mark.asyncio
async def test_three_people_and_three_ai_at_a_6_seat_rook_table_finish_a_game() -> None:
    async with running() as server, asyncio.timeout(GAME_TIMEOUT * 3):
        option = {"Option": 7, "Seats": 6, "Bots": 3}
        people = await seat_people(server.port, "rook", option, ["ann", "bob", "cy"])
        await play_all(people)
        check_streams(people)
        assert sorted(seat_of(p) for p in people) == [0, 4, 5]  # the AI sit next to ann
        for peer in people:
            deal = next(m for m in peer.messages if m["Type"] == "Deal")
            assert (deal["Playerid"], len(deal["Hand"]), len(deal["Players"])) == (
                seat_of(peer),
                7,
                6,
            )
            setups = [m for m in peer.messages if m["Type"] == "Setup" and "Trump" in m]
            assert setups
            assert all(len(m["Partners"]) in (0, 2) for m in setups)
            await peer.close()


@pytest.mark.asyncio
async def test_two_people_play_hundert_with_the_feder_option_to_the_end() -> None:
    async with running() as server, asyncio.timeout(GAME_TIMEOUT):
        option = {"Option": 7, "Seats": 3, "Bots": 1, "Feder": True}
        people = await seat_people(server.port, "hundert", option, ["ann", "bob"])
        await play_all(people)
        check_streams(people)
        table = next(m for m in people[0].messages if m["Type"] == "Table" and m["Free"] == 0)
        assert table["Flags"] == ["Feder"]
        scores = [m for m in people[0].messages if m["Type"] == "Score" and "Round" in m]
        assert len(scores) == 6  # each of the three deals twice
        for score in scores:
            assert sum(score["Points"]) == 0
            assert sorted(abs(p) for p in score["Points"]) == [1, 1, 2]  # 1 chip each way
        assert sum(over(people[0])["Score"]) == 0
        plays = [m for m in people[1].messages if m["Type"] == "Play" and "Total" in m]
        bob = seat_of(people[1])
        assert bob == 2  # the AI sits next to ann
        assert all(not is_prompt(m) or "Legal" not in m or m["Playerid"] == bob for m in plays)
        for peer in people:
            await peer.close()


@pytest.mark.asyncio
async def test_a_person_in_text_mode_plays_hundert_over_a_socket() -> None:
    async with running() as server, asyncio.timeout(GAME_TIMEOUT):
        peer = await Peer.welcomed(server.port)  # in JSON first
        await peer.send(b"create hundert\r\n")
        options = await peer.text_until_prompt()
        assert options[-1].startswith("> choose an option: 1-8")
        await peer.send(b"2\r\n")  # against two AI
        seen: list[str] = []
        for _ in range(200):
            lines = await peer.text_until_prompt()
            seen += lines
            if lines[-1].startswith("> create, join"):
                break
            assert lines[-1].startswith("> play"), lines[-3:]
            await peer.send(b"play 1\r\n")
        assert any(line.startswith("Game over") for line in seen), seen[-5:]
        assert any("total" in line for line in seen)
        await peer.close()
