"""The manual's key table (docs/app.md) is the one `scripts/key_table.py` builds from the
bindings: a key added, removed or remapped by default without the page following fails
here."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest
from textual.binding import Binding

from screen_analysis.tui import app_keys
from screen_analysis.tui.app_keys import remappable_ids
from screen_analysis.tui.screens import screen_keys

ROOT = Path(__file__).resolve().parents[1]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("key_table", ROOT / "scripts" / "key_table.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_manuals_key_table_is_the_one_the_bindings_make() -> None:
    script = _script()
    page = (ROOT / "docs" / "app.md").read_text(encoding="utf-8")
    assert script.with_table(page) == page, "run `uv run python scripts/key_table.py`"


def test_the_table_lists_every_id_once_per_place_and_the_keys_people_missed() -> None:
    table = _script().key_table()
    listed = set(re.findall(r"\| `([a-z0-9-]+)` \|$", table, flags=re.MULTILINE))
    assert listed == remappable_ids()
    for key, binding_id in (("s", "sort"), ("L", "load-all"), ("b", "sidebar")):
        assert f"| `{key}` |" in table and f"| `{binding_id}` |" in table


def test_a_changed_binding_makes_the_check_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check compares with the bindings as they are, not with a stored copy."""
    script = _script()
    page = (ROOT / "docs" / "app.md").read_text(encoding="utf-8")
    swap = Binding("x", "swap", "Swap A/B", tooltip="Swap the two sides", id="compare-swap")
    monkeypatch.setattr(screen_keys, "COMPARE_KEYS", [screen_keys.COMPARE_KEYS[0], swap])
    monkeypatch.setattr(
        app_keys,
        "SCOPES",
        tuple(
            (title, tuple(screen_keys.COMPARE_KEYS if title == "Compare" else s for s in scopes))
            for title, scopes in app_keys.SCOPES
        ),
    )
    assert script.with_table(page) != page
