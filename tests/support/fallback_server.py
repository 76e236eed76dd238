"""``hundred-server ARGS`` without the fast parts, for test_fallback.py: orjson and uvloop
hidden (an import of either fails, as where no wheel of theirs installs), and the
seeds and tokens of protocol.md's example session, so that what it says is known."""

from __future__ import annotations

import functools
import sys

sys.modules["orjson"] = None  # type: ignore[assignment]  # import orjson: ImportError
sys.modules["uvloop"] = None  # type: ignore[assignment]

from hundred_server import cli  # noqa: E402
from hundred_server.core.hub import Hub  # noqa: E402
from hundred_server.io import server  # noqa: E402

SEED = "protocol-example"
TOKEN = "9b3e4d2a7c1f0e8d6b5a493827160f5e"

if __name__ == "__main__":
    server.Hub = functools.partial(  # type: ignore[misc]
        Hub, seed_source=lambda: SEED, token_source=lambda: TOKEN
    )
    raise SystemExit(cli.main(sys.argv[1:]))
