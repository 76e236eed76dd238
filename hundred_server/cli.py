"""The ``hundred-server`` command (also ``python -m hundred_server``).

Subcommands::

    serve              run the server (the default): 127.0.0.1:7110, --host/--port or
                       HUNDRED_HOST/HUNDRED_PORT; every game kept in the SQLite store
                       --db (default hundred.db), or in PostgreSQL with --store
                       postgresql://USER@HOST/DB; unfinished ones restored at start;
                       Ctrl-C or SIGTERM stops it
    games              list the stored games (id, game, players, state, started, result)
    export ID          print a stored game's record (which replay accepts); with
                       --reveal, the Reveal line of a game no longer played (its seed)
    replay FILE        replay a game record (FILE or - for stdin); Score lines, or an
                       Error line and exit status 2 at the first bad line
    verify RECORD      check a record's deals against its table's revealed seed
                       (--seed SEED, and --commit HASH from the Commit); exit status
                       2 at a mismatch (protocol.md, "Provably fair deals")
    selfplay           naive bots play many games; prints one JSON summary line
    tournament         built-in AIs and plug-in bots play many seeded games (duplicate
                       deals if asked); a table of wins, points and ratings, or --json
    check-bot G=M:C    check a plug-in bot class (docs/plugins.md); PASS/FAIL lines,
                       exit status 0 only if every check passes, 1 if one fails
    demo               one game of naive bots, told for people

Exit status: 0 on success, 2 for a bad record, a file that cannot be read, a store
that cannot be used (damaged, not ours, from a newer version: never overwritten), or a
bad command line (argparse's own convention).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import textwrap
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any, cast

from hundred_server import __version__
from hundred_server import games as registry
from hundred_server.ai.plugins import BotLimits, PluginError, load_plugin, parse_plugin
from hundred_server.ai.pool import DEPTH as AI_DEPTH
from hundred_server.ai.pool import QUEUE_PER_WORKER, PoolLimits, default_workers
from hundred_server.ai.pool import TIMEOUT as AI_TIMEOUT
from hundred_server.ai.selfplay import selfplay
from hundred_server.config import (
    LOG_LEVELS,
    LOOPS,
    AISettings,
    Listeners,
    Settings,
    StoreSettings,
)
from hundred_server.core.fairness import reveal_message, verify
from hundred_server.core.lobby import AI_LEVELS, Limits
from hundred_server.games.kit.search import BUDGET
from hundred_server.games.records import dumps_line, replay
from hundred_server.store import (
    DEFAULT_PATH,
    GameStore,
    StoreError,
    check_url,
    describe,
    is_url,
    open_store,
)

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_ERROR = 2


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _count(text: str) -> int:
    """A whole number from 0."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


def _store_options(parser: argparse.ArgumentParser, db_help: str) -> None:
    """``--db PATH`` (an SQLite file) or ``--store URL`` (PostgreSQL), not both."""
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--db", metavar="PATH", help=db_help)
    which.add_argument(
        "--store",
        metavar="URL",
        help="the games in PostgreSQL instead: postgresql://USER@HOST[:PORT]/DATABASE (or "
        "$HUNDRED_STORE; postgres:// too). A password is best left to PGPASSWORD or "
        "~/.pgpass (libpq reads them); one in the URL is never shown (***). Needs the "
        "postgres extra: pip install 'hundred_server[postgres]'",
    )


def _location(args: argparse.Namespace) -> str:
    """Where the store is: --store or --db as given, else $HUNDRED_STORE, else
    $HUNDRED_DB, else the default file. A URL that names no engine this server knows is
    refused here (``StoreError``), before anything is opened."""
    url = args.store or (None if args.db else os.environ.get("HUNDRED_STORE"))
    if url:
        check_url(url)
        return str(url)
    return str(args.db or os.environ.get("HUNDRED_DB") or DEFAULT_PATH)


def _open_store(
    location: str,
    command: str,
    must_exist: bool = False,
    exclusive: bool = False,
    site: str | None = None,
) -> GameStore | None:
    """The store at ``location``, a path or a URL (``exclusive``: for a server, which
    must be its only one; ``must_exist``: for a reader, which never makes one)."""
    try:
        return open_store(location, exclusive=exclusive, create=not must_exist, site=site)
    except StoreError as exc:
        print(f"hundred-server {command}: {exc}", file=sys.stderr)
        return None


def _games(path: str) -> int:
    store = _open_store(path, "games", must_exist=True)
    if store is None:
        return EXIT_ERROR
    try:
        for line in describe(store.games()):
            print(line)
    finally:
        store.close()
    return EXIT_OK


def _export(path: str, game_id: int, reveal: bool = False, under_way: bool = False) -> int:
    store = _open_store(path, "export", must_exist=True)
    if store is None:
        return EXIT_ERROR
    try:
        game = store.game(game_id)
    finally:
        store.close()
    if game is None:
        print(f"hundred-server export: no game {game_id} in {store.location!r}", file=sys.stderr)
        return EXIT_ERROR
    if reveal:
        if game.state == "playing":
            print(
                f"hundred-server export: game {game_id} is still playing: its seed stays "
                "secret until it ends",
                file=sys.stderr,
            )
            return EXIT_ERROR
        print(dumps_line(reveal_message(game.id, game.game, game.seed)))
        return EXIT_OK
    if game.state == "playing" and not under_way:
        print(
            f"hundred-server export: game {game_id} is still playing: its record holds "
            "cards its players may not see yet (every hand, finished tricks); wait for it "
            "to end, or add --under-way",
            file=sys.stderr,
        )
        return EXIT_ERROR
    for line in game.lines:
        print(line)
    return EXIT_OK


def _seconds(text: str) -> float:
    """0 to a day of seconds (refuses nan and inf)."""
    return _number(text, 0.0, "seconds")


def _keep_days(text: str) -> float:
    return _number(text, 0.0, "days", above=True)


def _positive_seconds(text: str) -> float:
    return _number(text, 0.0, "seconds", above=True)


def _per_second(text: str) -> float:
    return _number(text, 0.0, "lines a second", above=True)


def _number(text: str, low: float, what: str, above: bool = False) -> float:
    """A float from ``low`` (exclusive if ``above``) to 86400; nan and inf refused."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of {what}: {text!r}") from None
    if not (low < value if above else low <= value) or not value <= 86400:
        bound = f"more than {low:g}" if above else f"{low:g}"
        raise argparse.ArgumentTypeError(f"must be {bound} to 86400 {what}, got {text!r}")
    return value


def _bot_options(parser: argparse.ArgumentParser) -> None:
    limits = BotLimits()
    parser.add_argument(
        "--bot-timeout",
        type=_positive_seconds,
        default=limits.timeout,
        metavar="SECONDS",
        help=f"seconds a plug-in bot has for each move (default {limits.timeout:g}); then its "
        "worker is killed and the default AI plays the move, a forfeit",
    )
    parser.add_argument(
        "--bot-memory",
        type=_positive,
        default=limits.memory >> 20,
        metavar="MIB",
        help=f"the address space a plug-in bot's worker may use, in MiB (default "
        f"{limits.memory >> 20}); past it, its move is a forfeit",
    )


def _budget(text: str) -> float:
    """Seconds a strong AI decision may take: more than 0, at most 10."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, got {text!r}") from None
    if not 0 < value <= 10:
        raise argparse.ArgumentTypeError(
            f"must be more than 0 and at most 10 seconds, got {text!r}"
        )
    return value


def _budget_option(parser: argparse.ArgumentParser, flag: str, what: str) -> None:
    parser.add_argument(
        flag,
        type=_budget,
        metavar="SECONDS",
        help=f"seconds of CPU time {what} may think a decision at most (default "
        f"{BUDGET:g}); it does a fixed amount of search, reproducible from the seed, "
        "and the cap cuts it short only on a slow machine",
    )


def _ai_pool(parser: argparse.ArgumentParser, args: argparse.Namespace) -> PoolLimits | None:
    """The strong AI's worker pool ``serve`` asks for (None: ``--ai-workers 0``)."""
    workers = default_workers() if args.ai_workers is None else args.ai_workers
    if workers == 0:
        return None
    budget = BUDGET if args.ai_budget is None else args.ai_budget
    if args.ai_timeout <= budget:
        parser.error(
            f"--ai-timeout ({args.ai_timeout:g} s) must be more than the strong AI's "
            f"budget ({budget:g} s, --ai-budget)"
        )
    return PoolLimits(workers, args.ai_queue, args.ai_timeout, depth=args.ai_depth)


def _bot_limits(args: argparse.Namespace) -> BotLimits:
    return BotLimits(timeout=args.bot_timeout, memory=args.bot_memory << 20)


def _wrapped(text: str) -> str:
    """A paragraph wrapped for help that keeps its own line breaks elsewhere."""
    return "\n".join(textwrap.wrap(text, 78))


def _switch(parser: argparse.ArgumentParser, flag: str, variable: str, text: str) -> None:
    """An on/off option, on with ``flag`` or with ``variable`` set (to anything but 0)."""
    parser.add_argument(
        flag,
        action="store_true",
        default=os.environ.get(variable, "") not in ("", "0"),
        help=f"{text} (or ${variable}=1)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hundred-server",
        description="Trick-taking card games over a line protocol: "
        "the server (the default command), records, self-play, demo.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    serve = commands.add_parser(
        "serve",
        help="run the server (the default command)",
        description="Run the game server. People connect with nc or telnet, bots with "
        "newline-delimited JSON (protocol.md). Ctrl-C or SIGTERM stops it.",
    )
    where = Listeners()
    serve.add_argument(
        "--host",
        default=os.environ.get("HUNDRED_HOST", where.host),
        help=f"address to listen on (default {where.host}, or $HUNDRED_HOST)",
    )
    serve.add_argument(
        "--port",
        type=int,
        default=int(os.environ.get("HUNDRED_PORT") or where.port),
        help=f"port (default {where.port}, or $HUNDRED_PORT; 0 picks a free one)",
    )
    serve.add_argument(
        "--classic-port",
        type=int,
        metavar="PORT",
        help="also listen on PORT for clients of the seed server's classic protocol, spoken "
        "exactly as it is (off unless asked; make run asks for 7111)",
    )
    serve.add_argument(
        "--http-port",
        type=int,
        metavar="PORT",
        default=int(os.environ["HUNDRED_HTTP_PORT"])
        if os.environ.get("HUNDRED_HTTP_PORT")
        else None,
        help="also serve the browser page on PORT, and the JSON protocol over a WebSocket at "
        "/ws (off unless asked, or $HUNDRED_HTTP_PORT; make run asks for 7180)",
    )
    serve.add_argument(
        "--bus",
        metavar="URL",
        help="one site of several servers: redis://HOST[:PORT][/DB] (or $HUNDRED_BUS), with "
        "a --store postgresql://... the site's servers share. One lobby, tokens good on any "
        "server, and a server's games taken over by another within seconds if it dies. "
        "Needs the bus extra: pip install 'hundred_server[bus]'",
    )
    _switch(
        serve,
        "--proxy-protocol",
        "HUNDRED_PROXY_PROTOCOL",
        "behind a load balancer: every TCP connection (the main and classic ports) "
        "starts with its PROXY header, v1 or v2, whose client address the per-address "
        "limits count; a connection without one is closed. Needs the proxy extra: pip "
        "install 'hundred_server[proxy]'",
    )
    _switch(
        serve,
        "--forwarded-for",
        "HUNDRED_FORWARDED_FOR",
        "the browser port (--http-port) is behind an HTTP load balancer: the "
        "per-address limits count the client address its X-Forwarded-For header ends "
        "with, and a WebSocket request without one is refused with HTTP 400",
    )
    serve.add_argument(
        "--loop",
        choices=LOOPS,
        default=os.environ.get("HUNDRED_LOOP") or Settings().loop,
        help="the event loop: asyncio's own, or uvloop (libuv's, in the default install "
        "where its wheel exists, not on Windows); auto (the default, or $HUNDRED_LOOP) "
        "takes uvloop when it is installed",
    )
    limits = Limits()
    serve.add_argument(
        "--max-connections",
        type=_positive,
        default=limits.max_connections,
        help=f"connections at once (default {limits.max_connections}); more are told server_full",
    )
    serve.add_argument(
        "--max-per-address",
        type=_positive,
        default=limits.max_connections_per_address,
        metavar="N",
        help="connections at once from one address (default "
        f"{limits.max_connections_per_address}); more are told too_many_connections",
    )
    serve.add_argument(
        "--max-tables-per-address",
        type=_positive,
        default=limits.max_tables_per_address,
        metavar="N",
        help="tables created from one address whose game is not over (default "
        f"{limits.max_tables_per_address}); one more create is told too_many_tables",
    )
    serve.add_argument(
        "--max-waiting-per-address",
        type=_positive,
        default=limits.max_waiting_per_address,
        metavar="N",
        help="of those, tables still waiting for players (default "
        f"{limits.max_waiting_per_address}); one more is told too_many_waiting",
    )
    serve.add_argument(
        "--max-watchers",
        type=_positive,
        default=limits.max_watchers,
        metavar="N",
        help=f"watchers a table may have at once (default {limits.max_watchers}); one more "
        "is told too_many_watchers",
    )
    serve.add_argument(
        "--chat-fanout",
        type=_positive,
        default=limits.chat_fanout,
        metavar="N",
        help="lobby chat lines delivered a second, to all its listeners summed and shared "
        f"by those who speak (default {limits.chat_fanout}); a line over a speaker's share "
        "is told chat_busy. Table chat is not counted",
    )
    serve.add_argument(
        "--handshake-timeout",
        type=_positive_seconds,
        default=limits.handshake_timeout,
        metavar="SECONDS",
        help="seconds a connection has for its handshake: the browser port's HTTP request "
        "and WebSocket opening, or the PROXY header with --proxy-protocol (default "
        f"{limits.handshake_timeout:g}); then it is closed",
    )
    serve.add_argument(
        "--max-half-open-per-address",
        type=_positive,
        default=limits.max_half_open_per_address,
        metavar="N",
        help="connections from one address still in their handshake at once (default "
        f"{limits.max_half_open_per_address}); one more is closed at once, unanswered. They "
        "count against --max-per-address too",
    )
    serve.add_argument(
        "--max-half-open",
        type=_positive,
        default=limits.max_half_open,
        metavar="N",
        help="connections still in their handshake at once, from everywhere (default "
        f"{limits.max_half_open}); one more is closed at once, unanswered",
    )
    serve.add_argument(
        "--rate",
        type=_per_second,
        default=limits.rate,
        help=f"lines a second a client may send that do not play a turn (default {limits.rate:g}; "
        f"bursts of {limits.burst})",
    )
    serve.add_argument(
        "--idle-timeout",
        type=_positive_seconds,
        default=limits.idle_timeout,
        help=f"seconds a client may stay silent in the lobby (default {limits.idle_timeout:g})",
    )
    serve.add_argument(
        "--table-idle-timeout",
        type=_positive_seconds,
        default=limits.table_idle_timeout,
        help="seconds a client may stay silent at a table, waiting or playing (default "
        f"{limits.table_idle_timeout:g}); then it counts as a lost connection",
    )
    serve.add_argument(
        "--grace",
        type=_seconds,
        default=limits.grace,
        help=f"seconds a seat waits for a person whose connection is lost before an AI "
        f"plays it (default {limits.grace:g}; they can take it back later with their token)",
    )
    serve.add_argument(
        "--result-hold",
        type=_seconds,
        default=limits.result_hold,
        help="seconds after a restart that the tokens of a game that ended just before "
        "the server stopped (its end saved, perhaps not sent) get its end: Score, "
        f"GameOver and Reveal, then the lobby (default {limits.result_hold:g})",
    )
    serve.add_argument(
        "--turn-timeout",
        type=_seconds,
        default=0.0,
        help="seconds a person has for each answer before the AI's move is played for "
        "them (default 0: no clock; option 5 tables may set their own)",
    )
    _store_options(
        serve,
        f"the SQLite store of every game (default {DEFAULT_PATH} in the working directory, "
        "or $HUNDRED_DB); unfinished games in it are restored at start",
    )
    serve.add_argument(
        "--keep-days",
        type=_keep_days,
        metavar="DAYS",
        help="remove finished games (over, abandoned, failed) from the store once they "
        "are older than DAYS days, checked at start and every hour (default: keep them "
        "all); games under way are never removed",
    )
    saving = StoreSettings()
    serve.add_argument(
        "--commit-wait",
        type=_seconds,
        default=saving.commit_wait,
        metavar="SECONDS",
        help="an SQLite store's commits are at least SECONDS apart (default "
        f"{saving.commit_wait:g}): moves that come meanwhile wait, unsent, and share the "
        "next transaction (the lines of people at tables wait unread, and are read together "
        "just before it); one after a quiet spell commits at once (0: a commit every turn "
        "of the event loop)",
    )
    serve.add_argument(
        "--commit-batch",
        type=_positive,
        default=saving.commit_batch,
        metavar="N",
        help=f"... or sooner, as soon as N turns' moves wait for the commit (default "
        f"{saving.commit_batch}): a busy server commits as often as it fills a batch",
    )
    serve.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="GAME=MODULE:CLASS",
        help="a plug-in bot class for GAME's AI seats, e.g. GAME=mybot:Player (a class "
        "with act(view), or the method of that game's own shape; docs/plugins.md); once "
        "per game. Each seat's bot runs in a worker process of its own",
    )
    _bot_options(serve)
    ai = AISettings()
    serve.add_argument(
        "--ai",
        choices=AI_LEVELS,
        default=ai.level,
        help=f"the AI of a new table that does not ask for one (default {ai.level}); "
        'a table asks with "AI":"naive" in its Game answer, or the word naive in text mode',
    )
    _budget_option(serve, "--ai-budget", "a strong AI seat")
    serve.add_argument(
        "--ai-workers",
        type=_count,
        default=os.environ.get("HUNDRED_AI_WORKERS") or None,
        metavar="N",
        help="worker processes that play the strong AI's moves, so the event loop never "
        "searches (default: one per core beyond the first, at least one, here "
        f"{default_workers()}; or $HUNDRED_AI_WORKERS); 0 plays them in the server's own "
        "process, one move at a time between the other connections' lines",
    )
    serve.add_argument(
        "--ai-queue",
        type=_count,
        metavar="N",
        help="strong-AI moves that may wait for a worker before a new table of the strong "
        f"AI is told ai_busy (default {QUEUE_PER_WORKER} a worker); tables already "
        "playing always have their moves queued",
    )
    serve.add_argument(
        "--ai-timeout",
        type=_positive_seconds,
        default=AI_TIMEOUT,
        metavar="SECONDS",
        help=f"seconds a worker may take on one strong-AI move (default {AI_TIMEOUT:g}); "
        "then it is replaced and the naive AI plays that move",
    )
    serve.add_argument(
        "--ai-depth",
        type=_positive,
        default=AI_DEPTH,
        metavar="N",
        help=f"strong-AI moves sent to a worker at once (default {AI_DEPTH}): with 2 a "
        "worker starts its next move as soon as it has answered one, without waiting "
        "for the server to read the answer; 1 sends the next only then",
    )
    serve.add_argument(
        "--memory",
        action="store_true",
        help="keep nothing on disk: no store, games end with the server",
    )
    serve.add_argument(
        "--log-level",
        default=Settings().log_level,
        choices=LOG_LEVELS,
        help="what to log on stderr (default INFO: a line per connection and table event)",
    )

    games = commands.add_parser(
        "games",
        help="list the games in the store",
        description="Lists every game in the store, oldest first: id, game, players, "
        "state (playing, over, abandoned, failed), when it started (UTC) and its result.",
    )
    _store_options(games, f"the SQLite store (default {DEFAULT_PATH}, or $HUNDRED_DB)")
    export = commands.add_parser(
        "export",
        help="print a stored game's record",
        description="Prints the record of game ID (JSON lines), which replay accepts. "
        "The record of a game still under way holds every hand, the kitty and the "
        "finished tricks nobody at the table may see: it is refused unless --under-way "
        "says the operator means it (the store itself is readable only by its owner).",
    )
    export.add_argument("id", metavar="ID", type=_positive, help="the game's id (see games)")
    export.add_argument(
        "--under-way",
        action="store_true",
        help="export a game that is still playing too (its hidden cards included)",
    )
    export.add_argument(
        "--reveal",
        action="store_true",
        help="print the game's Reveal line (its table's seed and commitment) instead; "
        "refused while the game is still playing",
    )
    _store_options(export, f"the SQLite store (default {DEFAULT_PATH}, or $HUNDRED_DB)")

    rep = commands.add_parser(
        "replay",
        help="replay a game record and print its scores",
        description="Replay a JSON-lines game record. Prints a Score line after every "
        "round and a GameOver line at the end; at the first bad line prints an Error "
        "line and exits with status 2.",
    )
    rep.add_argument("file", metavar="FILE", help="the record, or - to read standard input")

    check = commands.add_parser(
        "verify",
        help="check a game record's deals against its revealed seed",
        description="Checks that a game record replays and that every round's deck in it "
        "is the one the seed deals (and, with --commit, that the seed is the one the "
        "table committed to). Prints a line per round; exits with status 2 at a "
        "mismatch, a record that does not replay or a file that cannot be read.",
    )
    check.add_argument("file", metavar="RECORD", help="the record, or - to read standard input")
    check.add_argument("--seed", required=True, help="the table's seed, from its Reveal")
    check.add_argument("--commit", metavar="HASH", help="the Hash of the table's Commit")

    play = commands.add_parser(
        "selfplay",
        help="naive bots play many games; prints a JSON summary",
        description="Naive bots play GAMES games; prints one JSON summary line. Game i "
        "(from 1) of a run with seed S is seeded S-i.",
    )
    play.add_argument(
        "--players",
        type=_positive,
        default=4,
        help="seats (default 4; the game says how many it takes)",
    )
    play.add_argument(
        "--game",
        choices=registry.names(),
        default=registry.DEFAULT_GAME,
        help=f"the game (default {registry.DEFAULT_GAME})",
    )
    play.add_argument("--games", type=_positive, default=100, help="games to play (default 100)")
    play.add_argument("--seed", help="run seed (default: a random one, shown in the summary)")
    play.add_argument(
        "--record", metavar="DIR", help="write each game's record to DIR/game-NNNNN.jsonl"
    )
    play.add_argument(
        "--progress", action="store_true", help="show a progress bar (only on a terminal)"
    )
    play.add_argument(
        "--jobs",
        type=_positive,
        default=1,
        help="processes to play in (default 1; the games are the same whatever it is)",
    )

    tour = commands.add_parser(
        "tournament",
        help="bots play many seeded games; a table of wins, points and ratings",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=_wrapped(
            "Entrants play N seeded deals of GAME (--games N); prints a table of each "
            "entrant's games, wins, win rate with its 95% (Wilson) interval, mean final "
            "points, forfeits and openskill rating, best rated first. An entrant is one of "
            "the game's built-in AIs by name (every game has naive, default and strong, the "
            "searching AI that the server's tables play by default) or a plug-in "
            "bot module:Class (docs/plugins.md), run out of process: its timeouts, crashes "
            "and illegal answers are forfeits, each played by the default AI and counted. "
            "A game takes as many entrants as its table has seats; a partnership game takes "
            "two, the first at seats 0 and 2. Deal i of a run with seed S is dealt from S-i."
        ),
        epilog=_wrapped(
            "With --duplicate every deal is played once for every rotation of the "
            "entrants over the seats (k entrants: k rotations; partnerships: the two sides "
            "swapped), so --games N is N deals and N*k games and the luck of the deal "
            "cancels."
        )
        + "\n\nexamples:\n  hundred-server tournament --bots naive,naive,default,default "
        "--games 100 --duplicate --seed s1\n  hundred-server tournament --bots "
        "naive,naive,mybot:Player --games 50 --record out/ --json",
    )
    tour.add_argument(
        "--game",
        choices=registry.names(),
        default=registry.DEFAULT_GAME,
        help=f"the game (default {registry.DEFAULT_GAME})",
    )
    tour.add_argument(
        "--bots",
        required=True,
        metavar="A,B,...",
        help="the entrants, comma-separated: built-in AI names (naive, default, strong) or "
        "module:Class plug-ins; a name may come twice (labelled name#2)",
    )
    tour.add_argument(
        "--games",
        type=_positive,
        default=100,
        metavar="N",
        help="deals to play (default 100): N games, or N*k with --duplicate (k entrants)",
    )
    tour.add_argument("--seed", help="run seed (default: a random one, shown in the output)")
    tour.add_argument(
        "--duplicate",
        action="store_true",
        help="play every deal once for each rotation of the entrants over the seats",
    )
    tour.add_argument(
        "--jobs",
        type=_positive,
        default=1,
        help="processes to play in (default 1; the results are the same whatever it is)",
    )
    tour.add_argument(
        "--record",
        metavar="DIR",
        help="write each game's record to DIR/game-NNNNN.jsonl, the entrants' labels as "
        "its Players (replay reads them)",
    )
    tour.add_argument("--json", action="store_true", help="print one JSON object instead")
    _budget_option(tour, "--budget", "the strong entrant")
    _bot_options(tour)

    check_bot = commands.add_parser(
        "check-bot",
        help="check a plug-in bot class: PASS or FAIL for each check",
        description="Checks a plug-in bot (GAME=module:Class) the way an assignment's "
        "test script would: the module imports, the class exists, its method takes the "
        "right parameters without defaults, it can be made, and over many random "
        "positions it answers in time with a legal move (and the game's own checks of "
        "its answers). The bot runs in a worker process, within the same limits as in "
        "the server. Prints PASS or FAIL and why for each check; exit status 0 only if "
        "all pass, 1 if one fails.",
    )
    check_bot.add_argument("plugin", metavar="GAME=MODULE:CLASS", help="the plug-in to check")
    check_bot.add_argument(
        "--positions",
        type=_positive,
        default=200,
        help="random positions to ask it about (default 200)",
    )
    check_bot.add_argument("--seed", help="seed of the positions (default: a random one)")
    _bot_options(check_bot)

    demo = commands.add_parser(
        "demo",
        help="watch one game of naive bots",
        description="Plays one game of naive bots and tells it round by round.",
    )
    demo.add_argument("--seed", help="deal seed (default: a random one, shown at the top)")
    demo.add_argument(
        "--players",
        type=_positive,
        default=4,
        help="seats (default 4; the game says how many it takes)",
    )
    demo.add_argument(
        "--game",
        choices=[n for n in registry.names() if registry.get(n).demo is not None],
        default=registry.DEFAULT_GAME,
        help=f"the game (default {registry.DEFAULT_GAME})",
    )
    return parser


def _replay(path: str) -> int:
    if path == "-":
        stdin = sys.stdin
        return _print_replay(getattr(stdin, "buffer", stdin))
    try:
        file = open(path, "rb")  # noqa: SIM115 - closed below; only opening is guarded
    except OSError as error:
        reason = error.strerror or str(error)
        print(f"hundred-server replay: cannot read {path!r}: {reason}", file=sys.stderr)
        return EXIT_ERROR
    with file:
        return _print_replay(file)


def _verify(path: str, seed: str, commit: str | None) -> int:
    if path == "-":
        stdin = sys.stdin
        lines = list(getattr(stdin, "buffer", stdin))
    else:
        try:
            with open(path, "rb") as file:
                lines = list(file)
        except OSError as error:
            reason = error.strerror or str(error)
            print(f"hundred-server verify: cannot read {path!r}: {reason}", file=sys.stderr)
            return EXIT_ERROR
    verdict = verify(lines, seed, commit)
    if verdict.game is None:  # not a record that replays: nothing was checked
        print(f"hundred-server verify: {path}: {verdict.failure}", file=sys.stderr)
        return EXIT_ERROR
    for line in verdict.lines:
        print(line)
    return EXIT_OK if verdict.ok else EXIT_ERROR


def _check_bot(text: str, positions: int, seed: str | None, limits: BotLimits) -> int:
    from hundred_server.ai.check import check_bot

    try:
        plugin = parse_plugin(text)
    except PluginError as exc:
        print(f"hundred-server check-bot: {exc}", file=sys.stderr)
        return EXIT_ERROR
    passed = check_bot(plugin, positions, seed, limits, lambda line: print(line, flush=True))
    return EXIT_OK if passed else EXIT_FAILED


def _tournament(args: argparse.Namespace) -> int:
    from hundred_server.ai.tournament import Config, TournamentError, parse_entrants, tournament

    spec = registry.get(args.game)
    limits = _bot_limits(args)
    try:
        entrants = parse_entrants(spec, args.bots.split(","))
        checked: set[str] = set()
        for entrant in entrants:
            if entrant.plugin is not None and entrant.name not in checked:
                try:
                    load_plugin(entrant.plugin.label, limits)
                except PluginError as exc:
                    raise TournamentError(f'bad entrant "{entrant.name}": {exc}') from None
                checked.add(entrant.name)
    except TournamentError as exc:
        print(f"hundred-server tournament: {exc}", file=sys.stderr)
        return EXIT_ERROR
    summary = tournament(
        Config(args.game, entrants, limits, args.record, args.budget),
        args.games,
        seed=args.seed,
        duplicate=args.duplicate,
        jobs=args.jobs,
        progress_stream=None if args.json else sys.stderr,
    )
    if args.json:
        print(dumps_line(summary))
    else:
        from hundred_server.ai.tournament import format_table

        for line in format_table(summary):
            print(line)
    return EXIT_OK


def _print_replay(lines: Iterable[str | bytes]) -> int:
    status = EXIT_OK
    for obj in replay(lines):
        print(dumps_line(obj))
        if obj["Type"] == "Error":
            status = EXIT_ERROR
    return status


def _event_loop(loop: str) -> tuple[Callable[[], asyncio.AbstractEventLoop] | None, str]:
    """``--loop``'s event loop: a factory for ``asyncio.Runner`` (None: asyncio's own)
    and its name for the log. ImportError: uvloop was asked for and is not installed."""
    if loop != "asyncio":
        try:
            import uvloop
        except ImportError:
            if loop == "uvloop":
                raise
        else:
            factory = cast("Callable[[], asyncio.AbstractEventLoop]", uvloop.new_event_loop)
            return factory, f"uvloop {getattr(uvloop, '__version__', '?')}"
    return None, "asyncio"


def _serve(settings: Settings, bots: Sequence[str] = ()) -> int:
    """Serve with ``settings`` and the plug-in bots ``bots`` (``--bot``, loaded here),
    after the checks that need no event loop; the exit status."""
    from hundred_server.io.server import run

    listeners, location, bus_url = settings.listeners, settings.store.location, settings.bus
    if listeners.proxy_protocol:
        try:
            import proxyprotocol  # noqa: F401
        except ImportError as exc:
            print(
                f"hundred-server serve: --proxy-protocol needs the proxy-protocol package "
                f"({exc}): pip install 'hundred_server[proxy]'",
                file=sys.stderr,
            )
            return EXIT_ERROR
    if listeners.forwarded_for and listeners.http_port is None:
        print(
            "hundred-server serve: --forwarded-for is for the browser port, and there is "
            "none (--http-port): it changes nothing",
            file=sys.stderr,
        )

    try:
        loop_factory, loop_name = _event_loop(settings.loop)
    except ImportError as exc:
        print(
            f"hundred-server serve: --loop uvloop needs uvloop ({exc}): "
            "pip install 'hundred_server[fast]'",
            file=sys.stderr,
        )
        return EXIT_ERROR
    instance = None
    if bus_url is not None:
        if location is None or not is_url(location):
            print(
                "hundred-server serve: --bus needs --store postgresql://... (the site's "
                "instances share their games there; an SQLite file or --memory cannot be shared)",
                file=sys.stderr,
            )
            return EXIT_ERROR
        try:
            from hundred_server.io.bus import instance_id
        except ImportError as exc:
            print(
                f"hundred-server serve: --bus needs the redis package ({exc}): "
                "pip install 'hundred_server[bus]'",
                file=sys.stderr,
            )
            return EXIT_ERROR
        instance = instance_id()

    loaded = {}
    for text in bots:
        try:
            plugin = load_plugin(text, settings.ai.bot_limits)
        except PluginError as exc:
            print(f"hundred-server serve: --bot {text}: {exc}", file=sys.stderr)
            return EXIT_ERROR
        loaded[plugin.game] = plugin  # the last one for a game counts
    settings = replace(settings, ai=replace(settings.ai, plugins=tuple(loaded.values())))

    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(message)s", stream=sys.stderr
    )
    store = None
    if location is not None:
        store = _open_store(location, "serve", exclusive=True, site=instance)
        if store is None:
            return EXIT_ERROR
        log = logging.getLogger("hundred_server")
        log.info("store: %s", store.location if is_url(location) else os.path.abspath(location))
        if store.tightened:
            log.warning("the store was readable by other users; it is now mode 600")
    bus = None
    if bus_url is not None and store is not None and instance is not None:
        from hundred_server.io.bus import Bus

        bus = Bus(bus_url, store, instance)
    logging.getLogger("hundred_server").info("event loop: %s", loop_name)
    try:
        with asyncio.Runner(loop_factory=loop_factory) as runner:
            runner.run(run(settings, store, bus))
    except OSError as error:
        if bus is not None and "bus" in str(error):
            print(f"hundred-server serve: {error}", file=sys.stderr)
            return EXIT_ERROR
        ports = " and ".join(str(p) for p in listeners.ports)
        print(
            f"hundred-server: cannot listen on {listeners.host}:{ports}: {error}", file=sys.stderr
        )
        return EXIT_ERROR
    return EXIT_OK


def _settings(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Settings:
    """What ``serve`` was told, from its options and the environment."""
    limits = Limits(
        max_connections=args.max_connections,
        max_connections_per_address=args.max_per_address,
        max_tables_per_address=args.max_tables_per_address,
        max_waiting_per_address=args.max_waiting_per_address,
        max_watchers=args.max_watchers,
        chat_fanout=args.chat_fanout,
        handshake_timeout=args.handshake_timeout,
        max_half_open_per_address=args.max_half_open_per_address,
        max_half_open=args.max_half_open,
        rate=args.rate,
        burst=max(1, round(2 * args.rate)),
        idle_timeout=args.idle_timeout,
        table_idle_timeout=args.table_idle_timeout,
        grace=args.grace,
        turn_timeout=args.turn_timeout or None,
        result_hold=args.result_hold,
    )
    location = None if args.memory else _location(args)
    if args.keep_days is not None and location is None:
        parser.error("--keep-days needs a store: it cannot go with --memory")
    return Settings(
        limits=limits,
        listeners=Listeners(
            host=args.host,
            port=args.port,
            classic_port=args.classic_port,
            http_port=args.http_port,
            proxy_protocol=args.proxy_protocol,
            forwarded_for=args.forwarded_for,
        ),
        store=StoreSettings(location, args.keep_days, args.commit_wait, args.commit_batch),
        ai=AISettings(
            level=args.ai,
            budget=args.ai_budget,
            pool=_ai_pool(parser, args),
            bot_limits=_bot_limits(args),
        ),
        bus=args.bus or os.environ.get("HUNDRED_BUS") or None,
        log_level=args.log_level,
        loop=args.loop,
    )


def _readable(summary: dict[str, Any]) -> dict[str, Any]:
    """A self-play summary as people read it: seconds to the millisecond, rates and
    means to two places (a wall clock says no more)."""
    shown = dict(summary)
    shown["seconds"] = round(summary["seconds"], 3)
    shown["games_per_second"] = round(summary["games_per_second"], 2)
    shown["mean_rounds"] = round(summary["mean_rounds"], 2)
    return shown


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # the default command: serve with its defaults
        args = parser.parse_args(["serve", *(sys.argv[1:] if argv is None else argv)])
    try:
        return _run(parser, args)
    except StoreError as exc:  # a --store URL of no known kind; a store lost meanwhile
        print(f"hundred-server {args.command}: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:
        # The reader went away (| head): stop quietly, as cat does.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


def _run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """The command ``args`` names."""
    if args.command == "serve":
        return _serve(_settings(parser, args), args.bot)
    if args.command == "games":
        return _games(_location(args))
    if args.command == "export":
        return _export(_location(args), args.id, args.reveal, args.under_way)
    if args.command == "replay":
        return _replay(args.file)
    if args.command == "verify":
        return _verify(args.file, args.seed, args.commit)
    if args.command == "tournament":
        return _tournament(args)
    if args.command == "check-bot":
        return _check_bot(args.plugin, args.positions, args.seed, _bot_limits(args))
    counts = registry.get(args.game).seat_counts
    if args.players not in counts:
        parser.error(
            f"{args.game} is played by {' or '.join(map(str, counts))} players, not {args.players}"
        )
    if args.command == "selfplay":
        summary = selfplay(
            num_players=args.players,
            games=args.games,
            seed=args.seed,
            record_dir=args.record,
            progress=args.progress,
            jobs=args.jobs,
            game=args.game,
        )
        print(dumps_line(_readable(summary)))
        return EXIT_OK
    demo = registry.get(args.game).demo
    assert demo is not None  # argparse offers only games with a demo
    demo(args.seed, args.players)
    return EXIT_OK
