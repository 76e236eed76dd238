"""Hundert bots: ``act(view) -> action``, choosing only among ``view.legal``.

Both are deterministic given the view and read only what the seat may know: its own
hand, the pile, the cards played this deal and the total.

``FirstBot`` plays the first legal card (the hand in display order): a baseline.

``HundertBot``, the default, plays for the chips:

1. A card that makes exactly 100 is played at once (it takes chips from everyone).
2. Else, among the cards that keep the total below 100, it avoids leaving a gap to
   100 that the next seat may close exactly (it counts the cards it has not seen: a
   gap of 11 while an unseen ace is out is risky), and of the safe ones it sheds the
   one worth most, so that its low cards (9 8 7, worth nothing) are kept for the late
   turns, when the total is high and only a low card stays under 100. A gap no card
   can close without going over (1, 5 to 9, 12 or more when none is out) is a gift:
   it forces the next seat to play on with nothing but risk.
3. When every card goes past 100, it plays the one that overshoots least.
"""

from __future__ import annotations

from collections import Counter
from typing import Final

from hundred_server.games.hundert.rules import POINTS, TARGET, Action, Play, View
from hundred_server.games.kit.bots import no_action

#: Weight of a gap the next seat may close exactly, per unseen card that does, as a
#: share of the unseen cards (a probability-like risk, scaled to the points at stake).
EXACT_RISK: Final = 40.0


class FirstBot:
    """The first legal card; see the module docstring."""

    name = "first"

    def act(self, view: View) -> Action:
        if not view.legal:
            raise no_action(self.name, view.seat)
        return view.legal[0]


class HundertBot:
    """The default Hundert AI; see the module docstring."""

    name = "hundert"

    def act(self, view: View) -> Action:
        if not view.legal:
            raise no_action(self.name, view.seat)
        plays = [a for a in view.legal if isinstance(a, Play)]
        total = view.total
        exact = [p for p in plays if total + POINTS[p.card] == TARGET]
        if exact:
            return exact[0]
        under = [p for p in plays if total + POINTS[p.card] < TARGET]
        if not under:  # every card goes over: the least overshoot
            return min(plays, key=lambda p: (POINTS[p.card], p.card))
        unseen = Counter(POINTS[c] for c in view.unseen)
        out = sum(unseen.values()) or 1

        def cost(play: Play) -> tuple[float, int, int]:
            gap = TARGET - total - POINTS[play.card]
            risk = EXACT_RISK * unseen[gap] / out
            # Of equally safe cards, shed the highest now (-points), keep the low ones.
            return (risk, -POINTS[play.card], play.card)

        return min(under, key=cost)
