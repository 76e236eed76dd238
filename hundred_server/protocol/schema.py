"""Check wire messages against ``protocol.schema.json``, the JSON Schema of protocol.md.

``validate_server_message`` / ``validate_client_message`` raise
``jsonschema.ValidationError`` (jsonschema's best match among the errors);
``is_valid_server_message`` / ``is_valid_client_message`` answer yes or no.

jsonschema is a test dependency, not a run-time one: it is imported only when a
validator is first needed, so the server runs without it. Where jsonschema-rs is
installed (the test extra) it gives the yes or no, and jsonschema only says why.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

#: The schema file sits at the repository top, next to the package directory.
SCHEMA_PATH = Path(__file__).resolve().parents[2] / "protocol.schema.json"

SERVER_MESSAGE = "#/$defs/ServerMessage"
CLIENT_MESSAGE = "#/$defs/ClientMessage"


@cache
def load_schema() -> dict[str, Any]:
    """The whole schema, read once."""
    schema: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return schema


def _root(entry: str) -> dict[str, Any]:
    # The root with its own anyOf swapped for a $ref to one entry point, so the $defs
    # resolve as they do in the file.
    root = {k: v for k, v in load_schema().items() if k != "anyOf"}
    return {**root, "$ref": entry}


@cache
def _validator(entry: str) -> Any:
    """jsonschema's validator of ``entry``: the one that says why a message is wrong."""
    from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

    return Draft202012Validator(_root(entry))


@cache
def _fast(entry: str) -> Any:
    """jsonschema-rs's validator of ``entry`` (None where it is not installed): the same
    yes or no as jsonschema's (test_messages.py checks it on every message of its
    corpus), a hundred times sooner; most of what the tests check is valid."""
    try:
        import jsonschema_rs  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    return jsonschema_rs.Draft202012Validator(_root(entry))


def _is_valid(entry: str, obj: object) -> bool:
    fast = _fast(entry)
    if fast is not None:
        try:
            return bool(fast.is_valid(obj))
        except (TypeError, ValueError):  # not a JSON value (a set, a lone surrogate)
            pass
    return bool(_validator(entry).is_valid(obj))


def _validate(entry: str, obj: object) -> None:
    if _is_valid(entry, obj):
        return
    _validator(entry).validate(obj)
    raise AssertionError(f"jsonschema-rs refuses what jsonschema accepts: {obj!r}")


def validate_server_message(obj: object) -> None:
    """Raise ``jsonschema.ValidationError`` unless ``obj`` is a message the server may send."""
    _validate(SERVER_MESSAGE, obj)


def validate_client_message(obj: object) -> None:
    """Raise ``jsonschema.ValidationError`` unless ``obj`` is a message a client may send."""
    _validate(CLIENT_MESSAGE, obj)


def is_valid_server_message(obj: object) -> bool:
    return _is_valid(SERVER_MESSAGE, obj)


def is_valid_client_message(obj: object) -> bool:
    return _is_valid(CLIENT_MESSAGE, obj)
