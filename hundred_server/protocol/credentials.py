"""A text-mode sign-in (``login NAME``, ``register NAME``) as the codec hands it on.

Not a wire message: no JSON client can send one (a bot signs in with a ``Key``), and it
is never relayed to another instance, written to a record or logged. Its password is
left out of its ``repr``, so that a log line or a failed assertion that shows one shows
no password.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Credentials:
    """``login NAME`` (``register`` False) or ``register NAME`` (True), and the password
    typed for it (twice alike, for ``register``)."""

    register: bool
    name: str
    password: str = field(repr=False)
