"""The schema helpers (hundred_server/protocol/schema.py); the schema's content is checked in
test_protocol_doc.py."""

from __future__ import annotations

import subprocess
import sys

import jsonschema
import pytest

from hundred_server.protocol import schema


def test_importing_the_module_does_not_import_jsonschema() -> None:
    # jsonschema is a test dependency: the server must run without it.
    code = "import sys, hundred_server.protocol.schema; print('jsonschema' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"


def test_the_schema_file_is_found_at_the_repository_top() -> None:
    assert schema.SCHEMA_PATH.name == "protocol.schema.json"
    assert (schema.SCHEMA_PATH.parent / "hundred_server" / "protocol" / "schema.py").is_file()
    assert schema.load_schema() is schema.load_schema()


def test_validate_raises_validation_error_naming_the_place() -> None:
    with pytest.raises(jsonschema.ValidationError) as info:
        schema.validate_server_message({"Type": "Play", "Playerid": 3, "PlayedCard": "1X"})
    assert list(info.value.absolute_path) == ["PlayedCard"]
    with pytest.raises(jsonschema.ValidationError):
        schema.validate_client_message({"Type": "Play"})


def test_is_valid_answers_a_bool() -> None:
    assert schema.is_valid_server_message({"Type": "Hello"}) is True
    assert schema.is_valid_server_message({"Type": "Hello", "Name": "ann"}) is False
    assert schema.is_valid_client_message({"Type": "Hello", "Message": "quit"}) is True
    assert schema.is_valid_client_message({"Type": "Hello", "Message": "dance"}) is False
    assert schema.is_valid_client_message({"Type": "Hello"}) is True  # the question again
