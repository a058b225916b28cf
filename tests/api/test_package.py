"""The api package's names, imported from their modules on first use."""

from __future__ import annotations

import importlib

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
