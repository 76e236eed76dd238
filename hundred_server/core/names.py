"""Player names compared as people read them (no I/O).

A name passes for another when it looks like it: ``AI  1``, ``Al 1``, ``AI_1`` and
``ai1`` all read as the AI seat ``AI 1``, ``PIayer1`` as ``player1``. ``fold`` gives a
name's skeleton, what is left once case, spaces and separators (``_ - .``) are gone and
look-alikes are one letter (``l I 1 |``; ``o O 0``; ``rn`` and ``m``; ``vv`` and ``w``;
not ``s 5`` and the like, so that ``players`` stays a name); two names with the same
skeleton are the same name to whoever reads them. The lobby refuses a name whose
skeleton is a reserved name's (``reserved``), and a table shows the later of two seated
names that fold alike disambiguated (``ann (2)``, table.py).
"""

from __future__ import annotations

import re
from typing import Final

from hundred_server.protocol.errors import Malformed
from hundred_server.protocol.wire import Message, field_str, quote

#: What a person's name may be: 1-20 letters, digits, spaces, _ - . (and not reserved).
NAME_RE: Final = re.compile(r"^[A-Za-z0-9_.\- ]{1,20}$")

#: One letter for each group of characters that read alike (the allowed name
#: characters, NAME_RE, and ``|``), and nothing for the separators.
_LOOK_ALIKE: Final = str.maketrans(
    {
        **dict.fromkeys("1i|", "l"),
        "0": "o",
        **dict.fromkeys(" \t_-.", None),
    }
)
#: Pairs of letters that read as one (after the single letters are folded).
_PAIRS: Final = (("rn", "m"), ("vv", "w"))
#: What a digit folds to: the characters a folded number is made of.
_DIGITS: Final = "".join(sorted({str(d).translate(_LOOK_ALIKE) for d in range(10)}))
#: The skeletons of the reserved names: text mode says "you" for your own seat, the AI
#: seats are "AI 1"..., and "player<N>" is the name a connection has until it picks one.
_RESERVED: Final = re.compile(rf"^(you|me|al[{_DIGITS}]*|server|player[{_DIGITS}]*)$")


def fold(name: str) -> str:
    """``name``'s skeleton: lower case, without spaces or separators, each group of
    look-alikes one letter (see the module docstring). Folding twice changes nothing."""
    skeleton = name.lower().translate(_LOOK_ALIKE)
    for pair, letter in _PAIRS:
        skeleton = skeleton.replace(pair, letter)
    return skeleton


def reserved(name: str) -> bool:
    """Whether ``name`` is, or looks like, a reserved name (you, me, AI, AI N, server,
    playerN)."""
    return _RESERVED.match(fold(name)) is not None


def read_name(msg: Message, pattern: re.Pattern[str], rule: str) -> str | None:
    """``Name``, trimmed, if the message has one (``bad_name`` if it breaks ``rule``)."""
    name = field_str(msg, "Name")
    if name is None:
        return None
    name = name.strip()
    if not pattern.match(name):
        raise Malformed(f"{rule}: not {quote(name)}", "bad_name")
    return name
