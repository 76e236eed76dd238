"""Check wire messages against ``protocol.schema.json``, the JSON Schema of protocol.md.

``validate_server_message`` / ``validate_client_message`` raise
``jsonschema.ValidationError`` (jsonschema's best match among the errors);
``is_valid_server_message`` / ``is_valid_client_message`` answer yes or no.

jsonschema is a test dependency, not a run-time one: it is imported only when a
validator is first needed, so the server runs without it.
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


@cache
def _validator(entry: str) -> Any:
    # The root with its own anyOf swapped for a $ref to one entry point, so the $defs
    # resolve as they do in the file.
    from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

    root = {k: v for k, v in load_schema().items() if k != "anyOf"}
    return Draft202012Validator({**root, "$ref": entry})


def validate_server_message(obj: object) -> None:
    """Raise ``jsonschema.ValidationError`` unless ``obj`` is a message the server may send."""
    _validator(SERVER_MESSAGE).validate(obj)


def validate_client_message(obj: object) -> None:
    """Raise ``jsonschema.ValidationError`` unless ``obj`` is a message a client may send."""
    _validator(CLIENT_MESSAGE).validate(obj)


def is_valid_server_message(obj: object) -> bool:
    return bool(_validator(SERVER_MESSAGE).is_valid(obj))


def is_valid_client_message(obj: object) -> bool:
    return bool(_validator(CLIENT_MESSAGE).is_valid(obj))
