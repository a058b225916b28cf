"""Keys are data: every binding has an id, users remap ids in `[keymap]`, and the help
screen and the command palette are built from the bindings (the footer already is), so a
remapped key shows everywhere.

The keymap is checked before it is applied: an unknown id or a key Textual cannot name is
one message at start, and those entries are left out (their defaults stay).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from textual.binding import Binding, BindingsMap, BindingType
from textual.dom import DOMNode
from textual.keys import Keys, format_key, key_to_character
from textual.screen import Screen

MODIFIERS = frozenset({"ctrl", "shift", "alt", "meta", "super", "hyper"})
_NAMED_KEYS = frozenset(key.value for key in Keys)

# Ranks in the key bar: when not every key fits, the higher ranks stay.
IN_SIGHT = 3  # at every width: the way back to a pane folded out of sight
SHOWN = 2  # what a demo is made of: open an analysis, its image, the overview, compare
HANDY = 1  # find, reload


@dataclass(frozen=True)
class RankedBinding(Binding):
    """A binding with its rank in the key bar (a plain `Binding` ranks 0): when not every
    key fits, the bar keeps the higher ranks, each in its declared place. Textual's copies
    of a binding (its active bindings) drop the rank: the bar reads it where the binding
    is declared, as it reads the order (`declared_ranks`)."""

    rank: int = 0


class KeyHelp(NamedTuple):
    """One line of the help screen or one palette entry: the keys, what, and why."""

    binding_id: str
    action: str
    keys: str  # as shown: "r", "ctrl+f", "? f1"
    description: str
    tooltip: str


def is_key_name(key: str) -> bool:
    """Whether Textual can name `key` ("r", "?", "ctrl+f", "f5", "pageup", "shift+tab")."""
    if not key:
        return False
    if len(key) == 1:
        return key.isprintable() and not key.isspace()
    *modifiers, base = key.split("+")
    if any(m not in MODIFIERS for m in modifiers) or not base:
        return False
    if len(base) == 1:
        return base.isprintable() and not base.isspace()
    return base in _NAMED_KEYS or key in _NAMED_KEYS or key_to_character(base) is not None


def normalise_keys(keys: str) -> str:
    """A comma-separated key list in Textual's long form ("?" → "question_mark")."""
    parts = [part.strip() for part in keys.split(",")]
    return ",".join(_long_form(p) if len(p) == 1 else p.lower() for p in parts)


def _long_form(character: str) -> str:
    """The name Textual binds a one-character key by, as its BINDINGS would ("?" → …)."""
    (binding,) = Binding.make_bindings([Binding(character, "")])
    return binding.key


def check_keymap(
    keymap: Mapping[str, object], known_ids: Iterable[str]
) -> tuple[dict[str, str], list[str]]:
    """The entries to apply, and one line per entry left out (unknown id, bad key)."""
    known = set(known_ids)
    valid: dict[str, str] = {}
    problems: list[str] = []
    for binding_id, value in keymap.items():
        if binding_id not in known:
            problems.append(f"unknown key id {binding_id!r}")
            continue
        if not isinstance(value, str) or not value.strip():
            problems.append(f'{binding_id!r}: give the keys as a string, e.g. "ctrl+f"')
            continue
        keys = normalise_keys(value)
        bad = [k for k in keys.split(",") if not is_key_name(k)]
        if bad:
            problems.append(f"{binding_id!r}: {', '.join(map(repr, bad))} is not a key")
            continue
        valid[binding_id] = keys
    return valid, problems


def _bindings(bindings: Sequence[BindingType]) -> list[Binding]:
    found = BindingsMap(bindings).key_to_bindings.values()
    return [binding for per_key in found for binding in per_key]


def binding_ids(*scopes: Sequence[BindingType]) -> set[str]:
    """Every binding id of the given BINDINGS lists."""
    return {b.id for scope in scopes for b in _bindings(scope) if b.id}


def key_help(bindings: Sequence[BindingType], keymap: Mapping[str, str]) -> list[KeyHelp]:
    """The bindings of one scope with the keymap applied: one entry per binding id (or
    action) in the order they are declared, whatever keys they have now, keys joined in
    order; bindings without a description are left out."""
    remapped = BindingsMap(bindings)
    remapped.apply_keymap(dict(keymap))
    keys: dict[str, list[str]] = {}
    for key, found in remapped.key_to_bindings.items():
        for binding in found:
            shown = binding.key_display or format_key(key)
            names = keys.setdefault(binding_name(binding), [])
            if shown not in names:
                names.append(shown)
    entries: dict[str, KeyHelp] = {}
    for binding in Binding.make_bindings(bindings):
        name = binding_name(binding)
        if binding.description and name not in entries and name in keys:
            entries[name] = KeyHelp(
                name, binding.action, " ".join(keys[name]), binding.description, binding.tooltip
            )
    return list(entries.values())


def binding_name(binding: Binding) -> str:
    """What names a binding in help, the key bar and the palette: its id, else its action."""
    return binding.id or binding.action


def declared_order(bindings: Sequence[BindingType]) -> dict[str, int]:
    """Each binding's place in `bindings` by `binding_name`: a remapped key moves to the end
    of Textual's key map, and lists built from it are put back in this order."""
    order: dict[str, int] = {}
    for binding in Binding.make_bindings(bindings):
        order.setdefault(binding_name(binding), len(order))
    return order


def declared_ranks(bindings: Sequence[BindingType]) -> dict[str, int]:
    """Each ranked binding's rank in the key bar by `binding_name` (others rank 0)."""
    return {binding_name(b): b.rank for b in bindings if isinstance(b, RankedBinding)}


def declared_bindings(node: DOMNode, *, package: str = "") -> list[BindingType]:
    """The BINDINGS the node's class and its bases declare, bases first (as Textual merges
    them); with `package`, only those of classes in it (not Textual's own, such as a
    screen's Tab and Shift+Tab)."""
    return [
        binding
        for cls in reversed(type(node).__mro__)
        if cls.__module__.startswith(package)
        for binding in vars(cls).get("BINDINGS", ())
    ]


def bound_keys(screen: Screen[Any], ids: Iterable[str]) -> dict[str, str]:
    """The key each of `ids` is bound to on `screen` now, as the key bar shows it (the
    keymap applied; the first key of a binding with several), for words that name keys
    ("r retry", "i full screen"); ids not bound there, or disabled, are left out."""
    wanted = set(ids)
    found: dict[str, str] = {}
    for active in screen.active_bindings.values():
        binding = active.binding
        if binding.id in wanted and active.enabled and binding.id not in found:
            found[binding.id] = screen.app.get_key_display(binding)
    return found
