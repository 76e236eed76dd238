"""The schema helpers (hundred_server/protocol/schema.py) and the generator that writes the
schema from the message types (protocol/messages.py); the schema's content is checked in
test_protocol_doc.py, its meaning against the hand-kept one in test_messages.py."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from hundred_server.protocol import messages, schema


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


def test_the_schema_file_is_what_the_message_types_generate() -> None:
    # protocol.schema.json is made from the types (make schema): a type changed without
    # the file, or the file edited by hand, fails here.
    assert schema.SCHEMA_PATH.read_text(encoding="utf-8") == messages.schema_text()
    assert schema.load_schema() == messages.build_schema()


def test_the_generator_writes_the_file_and_checks_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "protocol.schema.json"
    monkeypatch.setattr(messages, "SCHEMA_PATH", target)
    assert messages.main(["--write"]) == 0
    assert json.loads(target.read_text(encoding="utf-8")) == messages.build_schema()
    assert messages.main(["--check"]) == 0
    target.write_text(target.read_text(encoding="utf-8").replace('"Seat"', '"Chair"', 1))
    assert messages.main(["--check"]) == 1
    assert "out of date: run make schema" in capsys.readouterr().err


def test_the_generator_runs_as_a_command() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "hundred_server.protocol.messages", "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
