"""What the games' bots (``games/<game>/bots.py``, and the strong AIs) share.

A bot is asked to act only when its seat must: with nothing legal to choose from, the
caller is at fault, never a player, so it raises the same internal fault in every game
(``no_action``). In a trick game a bot that plays a card asks which seats are still to
play to the trick after it (``seats_after``): the ones that can still beat its card.
"""

from __future__ import annotations

from hundred_server.protocol.errors import HundredError


def no_action(bot: str, seat: int) -> HundredError:
    """The fault of asking ``bot`` to act as ``seat`` when it has nothing to do."""
    return HundredError(f"the {bot} bot has nothing to do as seat {seat}")


def seats_after(seat: int, players: int, down: int) -> list[int]:
    """The seats still to play to a trick after ``seat``, with ``down`` cards in it
    before ``seat``'s (``players`` at the table), in the order they play."""
    return [(seat + k) % players for k in range(1, players - down)]
