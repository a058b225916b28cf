"""`-P a` and `-P b` reach two servers at once, each with its own key."""

from __future__ import annotations

import json
from pathlib import Path

from tests.profiles.conftest import TwoServers, profiles_config


def test_each_profile_reaches_its_server(invoke, two_servers: TwoServers, config_file: Path,
                                         monkeypatch) -> None:  # fmt: skip
    config_file.write_text(profiles_config(two_servers))
    monkeypatch.setenv("SCREEN_ANALYSIS_API_KEY", two_servers.a.api_key)
    a = invoke("-P", "a", "analyses", "list", "--format", "jsonl", "--limit", "100")
    assert a.exit_code == 0, a.stderr
    assert len(a.stdout.splitlines()) == 40
    monkeypatch.setenv("SCREEN_ANALYSIS_API_KEY", two_servers.b.api_key)
    b = invoke("-P", "b", "analyses", "list", "--format", "jsonl", "--limit", "100")
    assert b.exit_code == 0, b.stderr
    ids_b = {json.loads(line)["id"] for line in b.stdout.splitlines()}
    ids_a = {json.loads(line)["id"] for line in a.stdout.splitlines()}
    assert len(ids_b) == 25
    assert not ids_a & ids_b or ids_a != ids_b
    # the env var names the profile as well as the flag
    monkeypatch.setenv("SCREEN_ANALYSIS_PROFILE", "b")
    assert invoke("analyses", "list", "--format", "jsonl", "--limit", "100").stdout == b.stdout
    # the other server refuses b's key
    wrong = invoke("-P", "a", "analyses", "list")
    assert wrong.exit_code == 3
