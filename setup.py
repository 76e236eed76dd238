"""The strong AIs' search, compiled with mypyc where a C compiler is at hand.

Everything else is in setup.cfg. The modules in ``COMPILED`` are plain, type-checked
Python (``make lint`` checks them); mypyc turns them into C extensions that make the
same decisions a few times faster (bench/strong.py says ``"compiled": true``). The
build is optional: without a compiler, or with ``HUNDRED_PURE=1`` in the environment,
the install goes on with the pure-Python modules and says so. An editable install
(``pip install -e .``) puts the extensions next to the sources, where they win over the
``.py`` files: reinstall after editing one of them (``make`` does when they change).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

#: The strong AIs and what they share: the search's hot loops.
COMPILED = [
    "hundred_server/games/kit/search.py",
    "hundred_server/games/hundredandten/strong.py",
    "hundred_server/games/whist/strong.py",
    "hundred_server/games/pinochle/strong.py",
    "hundred_server/games/rook/strong.py",
    "hundred_server/games/hundert/strong.py",
    "hundred_server/games/spades/strong.py",
]


#: The shared library of the compiled modules (mypycify's group), beside them.
NATIVE = "hundred_server/games/native__mypyc"


def say(message: str) -> None:
    print(f"hundred_server: {message}", file=sys.stderr, flush=True)


def pure() -> list[Any]:
    """No extensions, and none left from an earlier editable install: those beside the
    sources would still be imported instead of them."""
    for source in (*COMPILED, NATIVE + ".py"):
        stem = Path(source).with_suffix("")
        for pattern in (".*.so", ".*.pyd"):
            for built in stem.parent.glob(stem.name + pattern):
                built.unlink()
                say(f"removed {built}")
    return []


class OptionalBuildExt(build_ext):
    """Builds the extensions, or none of them: one that fails (no compiler, no Python
    headers) removes those already built, and the install goes on in pure Python."""

    def run(self) -> None:
        try:
            super().run()
        except (Exception, SystemExit) as error:  # any failure means: pure Python
            for ext in self.extensions:
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            pure()
            say(f"the compiled strong AIs did not build ({error}); using pure Python")


def ext_modules() -> list[Any]:
    if os.environ.get("HUNDRED_PURE", "") not in ("", "0"):
        say("HUNDRED_PURE is set: the strong AIs stay pure Python")
        return pure()
    try:
        from mypyc.build import mypycify
    except ImportError:
        say("mypyc is not installed: the strong AIs stay pure Python")
        return pure()
    try:
        # One shared library inside the package (not a top-level module named by a hash).
        return list(mypycify(COMPILED, opt_level="3", group_name="hundred_server.games.native"))
    except (Exception, SystemExit) as error:  # a type error in them: pure Python
        say(f"mypyc could not compile the strong AIs ({error}); using pure Python")
        return pure()


setup(ext_modules=ext_modules(), cmdclass={"build_ext": OptionalBuildExt})
