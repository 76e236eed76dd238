"""Text mode's ``login NAME`` and ``register NAME``: the password prompts (no I/O).

``login NAME`` asks for the password; ``register NAME`` for a new one, then for it
again. The next line that is not blank is the password, whatever it says (a password
may be ``help``), taken as typed but for its line ending; the codec hands it on as
``Credentials`` (protocol/credentials.py), which the lobby checks off the event loop
(core/signin.py). A password line is never shown back, quoted in an error, logged or
recorded: an error about it says what is wrong without it.

No telnet negotiation is sent (``IAC WILL ECHO`` would hide the typing from telnet,
but netcat, which text mode serves too, shows those bytes as garbage, and the codec
only ever strips negotiation): the prompt says instead that the typing is shown on the
person's own screen only. The server never echoes a line.
"""

from __future__ import annotations

from typing import Final

from hundred_server.core.accounts import check_name, check_password
from hundred_server.protocol.credentials import Credentials
from hundred_server.protocol.errors import Malformed, Refused

#: Said with each password prompt.
PRIVATE: Final = "what you type is shown on your own screen only"


class PasswordPrompt:
    """The sign-in a text connection is typing a password for (``asking``)."""

    def __init__(self) -> None:
        #: (register, the account's name) while a password is asked for; else None.
        self.asking: tuple[bool, str] | None = None
        #: ``register``: the first of the two passwords typed.
        self._first: str | None = None

    def start(self, register: bool, args: list[str], in_lobby: bool) -> list[str]:
        """``login NAME`` or ``register NAME``: the password prompt."""
        command = "register" if register else "login"
        if not in_lobby:
            raise Refused(f"{command} in the lobby, not at a table (leave first)", "not_now")
        name = " ".join(args)
        if not name:
            raise Malformed(
                f"{command} NAME: the name of {'the new' if register else 'your'} account "
                f"({command} ann)",
                "bad_name",
            )
        if register:
            name = check_name(name)  # bad_name before any password is typed
        self.asking, self._first = (register, name), None
        if register:
            return [f"Password for the new account {name}, 8-128 characters ({PRIVATE}):"]
        return [f"Password for {name} ({PRIVATE}):"]

    def line(self, line: bytes) -> list[Credentials] | list[str]:
        """The password line (its ending stripped): for ``login``, the credentials; for
        ``register``, the prompt to type it again, then the credentials."""
        assert self.asking is not None
        register, name = self.asking
        try:
            password = line.decode("utf-8")
        except UnicodeDecodeError:
            self.asking = None
            raise Malformed(
                "that password is not UTF-8 (it was not read)", "bad_password"
            ) from None
        if not register:
            self.asking = None
            return [Credentials(False, name, password)]
        if self._first is None:
            try:
                self._first = check_password(password)
            except Malformed:
                self.asking = None
                raise
            return [f"The same password again ({PRIVATE}):"]
        first, self.asking, self._first = self._first, None, None
        if password != first:
            raise Malformed(
                f"the two passwords differ; no account was made (register {name} to try again)",
                "bad_password",
            )
        return [Credentials(True, name, password)]
