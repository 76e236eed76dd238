"""The tests, one folder per layer of hundred_server (docs/architecture.md), so a failure
names the layer it is in:

- ``core/``: the hub, lobby, sessions, tables, watchers, chat, tokens, fairness; no sockets;
- ``protocol/``: typed messages, the schema, protocol.md, the codecs (JSON, text), fuzzing;
- ``io/``: the asyncio server over real sockets on 127.0.0.1: limits, slow readers, news,
  WebSocket, faults, the pure-Python fallback;
- ``store/``: SQLite and PostgreSQL stores, their faults;
- ``ai/``: the worker pool, plug-in bots, self-play, tournaments, the compiled AIs;
- ``e2e/``: whole systems as a user runs them: the command line, the README, the bundled
  clients, the browser, a site of several servers;
- ``games/``: the game interface and what holds for every game (leak oracle, record bytes);
  ``games/kit/`` the shared kit; ``games/<game>/`` one game's rules, wire, text, records, AI;
- ``support/``: helpers only, no tests: the hub harness, the socket ``Peer``, the leak
  oracle, live servers, the real engines, the record fixtures' maker, ``compat``.

Each folder is a package, so pytest imports every test module by its full dotted name and
a test that borrows another's helper imports the same module object pytest ran.
"""
