"""kit/messages.py: the message builders every game shares."""

from __future__ import annotations

import json

from hundred_server.games.kit.messages import score_message


def test_a_score_is_type_round_then_the_games_fields_in_order_as_lists():
    totals, taken = (7, -3), [2, 1]
    msg = score_message(4, Bidder=1, Moon=True, Score=totals, Taken=taken, Made=False)
    assert json.dumps(msg) == (
        '{"Type": "Score", "Round": 4, "Bidder": 1, "Moon": true, "Score": [7, -3], '
        '"Taken": [2, 1], "Made": false}'
    )
    assert msg["Taken"] is not taken  # a list of its own: the event's is never shared
