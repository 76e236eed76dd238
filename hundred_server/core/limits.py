"""What one client may do: the limits of protocol.md, as one frozen value (no I/O)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """What one client may do (protocol.md, Limits)."""

    #: Connections at once; one more is told ``server_full`` and closed (server.py). A
    #: site's instance counts its own sockets: a client relayed in from another takes none.
    max_connections: int = 2000
    #: Connections at once from one address; one more is told ``too_many_connections``.
    max_connections_per_address: int = 32
    #: Tables created from one address whose game is not over (waiting or playing); one
    #: more ``create`` is told ``too_many_tables``.
    max_tables_per_address: int = 8
    #: Of those, tables still waiting for players; one more is told ``too_many_waiting``.
    max_waiting_per_address: int = 2
    #: Lines that do not move a game on (errors, lobby talk, pre-pass and unpass, blank
    #: lines): a connection may send ``rate`` a second on average and ``burst`` at once.
    #: A line over that is not read and gets ``rate_limited``; an answer that plays a
    #: turn is never counted, so a fast bot is never slowed.
    rate: float = 20.0
    burst: int = 40
    #: Lines refused for the rate that a connection may send in all before it is closed.
    max_refused: int = 100
    #: Seconds a connection may stay silent in the lobby (hub.py), counted from its last
    #: line or from when it came (back) to the lobby, whichever is later.
    idle_timeout: float = 600.0
    #: Seconds a connection may stay silent at a table (waiting or playing); then it is
    #: closed as a lost connection (in a game its seat waits ``grace``, then an AI).
    table_idle_timeout: float = 3600.0
    #: Seconds a seat waits for its owner after their connection is lost mid-game,
    #: before an AI plays it (they may still take it back later with their token).
    grace: float = 60.0
    #: Seconds a person has for each answer (None: no clock). When it runs out the AI's
    #: move is played for them. A table made with option 5 may set its own (``Clock``).
    turn_timeout: float | None = None
    #: Watchers a table may have at once; one more ``Watch`` is told ``too_many_watchers``.
    max_watchers: int = 50
    #: Lobby chat lines delivered a second, to every listener summed (chat.FanOut),
    #: shared by those who speak; a line over a speaker's share gets ``chat_busy``. 15 s
    #: at 10,000 is 150,000 lines, well under the 1,000,000 that 32 chatters to 400
    #: listeners may cost (issue #27), and still 25 lines a second to 400 listeners,
    #: more than anyone reads. A table's chat is not counted (a few listeners).
    chat_fanout: int = 10_000
    #: Seconds a connection has for its handshake: the WebSocket's HTTP request and
    #: opening handshake, or the PROXY header with ``--proxy-protocol``; then it closes.
    handshake_timeout: float = 3.0
    #: Connections at once still in their handshake (half-open: not yet a client), from
    #: one address and in all; one more is closed at once, unanswered (server.py). They
    #: count against ``max_connections_per_address`` too. Behind a proxy
    #: (``--proxy-protocol``, ``--forwarded-for``) only the limit in all applies: every
    #: connection has the proxy's address until its handshake says the client's.
    max_half_open_per_address: int = 8
    max_half_open: int = 512
    #: Seconds after a restart that the tokens of a game whose end the server may have
    #: saved and not sent (it ended just before the server stopped: store.ENDED_WINDOW)
    #: give that end: the seat's messages of its last move (its Score and GameOver),
    #: the Reveal, then the lobby question. Then they are ``bad_token`` as any other.
    result_hold: float = 600.0
