"""The api package's names, imported from their modules on first use."""

from __future__ import annotations

import importlib

import pytest

import screen_analysis.api as api


def test_every_public_name_is_found_in_its_module() -> None:
    assert sorted(api._MODULE_OF) == sorted(api.__all__)
    for name in api.__all__:
        module = importlib.import_module(f"screen_analysis.api.{api._MODULE_OF[name]}")
        assert getattr(api, name) is getattr(module, name)


def test_an_unknown_name_is_an_attribute_error() -> None:
    try:
        api.NoSuchThing  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as error:
        assert "NoSuchThing" in str(error)
    else:
        raise AssertionError("an unknown name was found")


def test_a_name_not_used_yet_is_loaded_from_its_module_and_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each name is loaded on first use (the names other tests used are kept in the package
    already, so they are forgotten here first)."""
    for name in api.__all__:
        monkeypatch.delitem(vars(api), name, raising=False)
    for name in api.__all__:
        module = importlib.import_module(f"screen_analysis.api.{api._MODULE_OF[name]}")
        assert getattr(api, name) is getattr(module, name)
        assert vars(api)[name] is getattr(module, name)  # the next use is a plain lookup


def test_an_unknown_name_is_refused_in_pythons_words() -> None:
    with pytest.raises(AttributeError) as caught:
        api.NoSuchThing  # type: ignore[attr-defined]  # noqa: B018
    assert str(caught.value) == "module 'screen_analysis.api' has no attribute 'NoSuchThing'"
