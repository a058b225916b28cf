"""Public APIs of our dependencies only: no private name of textual, textual-image,
textual-serve or httpx anywhere in `src/` outside the compat modules (`tui/compat/`).

Read from the syntax tree, not with a text search, so that it sees what a search misses:
a private module imported (`textual._xterm_parser`), a private name imported or reached on
a library's module or object (`tgp._send_tgp_message`), and a class of ours overriding or
using a private member it inherits from a library class (`App._fatal_error`,
`Server._make_app`, `self._exit_renderables`).

A handler named `_on_<event>` is not an override: Textual calls the handler each class of
the MRO defines for itself, so a widget's `_on_focus` runs besides `Widget._on_focus`.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import textwrap
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "screen_analysis"
LIBRARIES = frozenset({"textual", "textual_image", "textual_serve", "httpx"})
COMPAT = PACKAGE / "tui" / "compat"


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _library(dotted: str) -> bool:
    return dotted.split(".")[0] in LIBRARIES


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


class PrivateUses(ast.NodeVisitor):
    """Private names of the libraries one module uses, as "line: what" strings."""

    def __init__(self, module: str) -> None:
        self.module = module
        self.found: list[str] = []
        self.bound: set[str] = set()  # local names bound to a library module or object
        self.classes: list[str] = []  # the qualified name of the class being read

    def _note(self, node: ast.AST, what: str) -> None:
        self.found.append(f"{self.module}:{getattr(node, 'lineno', 0)}: {what}")

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if not _library(alias.name):
                continue
            if any(_private(part) for part in alias.name.split(".")):
                self._note(node, f"import {alias.name}")
            self.bound.add(alias.asname or alias.name.split(".")[0])

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level or not _library(module):
            return
        if any(_private(part) for part in module.split(".")):
            self._note(node, f"from {module} import …")
        for alias in node.names:
            if _private(alias.name):
                self._note(node, f"from {module} import {alias.name}")
            self.bound.add(alias.asname or alias.name)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        root: ast.expr = node.value
        while isinstance(root, ast.Attribute):
            root = root.value
        if _private(node.attr):
            if isinstance(root, ast.Name) and root.id in self.bound:
                self._note(node, ast.unparse(node))
            elif not _self_or_super(node.value) and node.attr in _LIBRARY_PRIVATES:
                # another object's private member that a library class has (`self.app._x`)
                self._note(node, ast.unparse(node))
        self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.classes.append(node.name)
        inherited = _private_members_inherited(self.module, ".".join(self.classes))
        if inherited:
            self._check_class(node, inherited)
        self.generic_visit(node)
        self.classes.pop()

    def _check_class(self, node: ast.ClassDef, inherited: dict[str, str]) -> None:
        for item in node.body:
            if (
                isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
                and item.name in inherited
                and not item.name.startswith("_on_")
            ):
                self._note(item, f"overrides {inherited[item.name]}.{item.name}")
        for child in ast.walk(node):
            if (
                isinstance(child, ast.Attribute)
                and child.attr in inherited
                and _self_or_super(child.value)
            ):
                self._note(child, f"{ast.unparse(child)} ({inherited[child.attr]})")


def _self_or_super(node: ast.expr) -> bool:
    if isinstance(node, ast.Name):
        return node.id in ("self", "cls")
    return (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"
    )


def _private_members_inherited(module: str, qualname: str) -> dict[str, str]:
    """Private members the class gets from the libraries' classes: name → the class."""
    found: object = importlib.import_module(module)
    for part in qualname.split("."):
        found = getattr(found, part, None)
    if not isinstance(found, type):
        return {}
    members: dict[str, str] = {}
    for base in reversed(found.__mro__):
        if _library(base.__module__):
            where = f"{base.__module__}.{base.__qualname__}"
            members.update(dict.fromkeys(_private_members(base), where))
    return members


@functools.cache
def _private_members(library_class: type) -> frozenset[str]:
    """The class's private attributes and methods, and the private instance attributes
    its methods assign (`self._exit_renderables = …`)."""
    names = {name for name in vars(library_class) if _private(name)}
    tree = _class_tree(library_class)
    for node in ast.walk(tree) if tree is not None else ():
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, ast.AnnAssign)
            else []
        )
        for target in targets:
            if (
                isinstance(target, ast.Attribute)
                and _self_or_super(target.value)
                and _private(target.attr)
            ):
                names.add(target.attr)
    return frozenset(names)


def _class_tree(cls: type) -> ast.AST | None:
    """The class's definition, also where the library re-exports it under another module
    name (httpx's classes say `httpx`, and inspect cannot find them there)."""
    try:
        return ast.parse(textwrap.dedent(inspect.getsource(cls)))
    except (OSError, TypeError):
        pass
    for member in vars(cls).values():
        if inspect.isfunction(member):
            module = ast.parse(Path(member.__code__.co_filename).read_text(encoding="utf-8"))
            for node in ast.walk(module):
                if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
                    return node
            return None
    return None


def _library_privates() -> frozenset[str]:
    """The private members of the library classes the app builds on."""
    from httpx import AsyncClient, Request, Response
    from textual.app import App
    from textual.binding import BindingsMap
    from textual.screen import ModalScreen
    from textual.widget import Widget

    classes = (App, ModalScreen, Widget, BindingsMap, AsyncClient, Request, Response)
    return frozenset(
        name
        for cls in classes
        for base in cls.__mro__
        if _library(base.__module__)
        for name in _private_members(base)
    )


_LIBRARY_PRIVATES = _library_privates()


def private_uses(path: Path) -> list[str]:
    """What `path` uses of the libraries' private names."""
    return private_uses_in(path.read_text(encoding="utf-8"), _module_name(path))


def private_uses_in(source: str, module: str) -> list[str]:
    """What `source` (the text of `module`) uses of the libraries' private names."""
    visitor = PrivateUses(module)
    visitor.visit(ast.parse(source))
    return visitor.found


def _sources() -> Iterator[Path]:
    for path in sorted(PACKAGE.rglob("*.py")):
        if COMPAT not in path.parents:
            yield path


def test_src_uses_no_private_name_of_the_libraries_outside_compat() -> None:
    found = [use for path in _sources() for use in private_uses(path)]
    assert found == [], "\n".join(found)


def test_the_check_sees_each_kind_of_private_use() -> None:
    """The check itself, on the compat modules, which must use what they exist for."""
    textual_uses = "\n".join(private_uses(COMPAT / "textual.py"))
    assert "self._exit_renderables" not in textual_uses  # public `panic` instead
    assert "overrides textual.app.App._fatal_error" in textual_uses
    assert "from textual._xterm_parser import" in textual_uses
    image_uses = "\n".join(private_uses(COMPAT / "textual_image.py"))
    assert "from textual_image import _terminal" in image_uses
    assert "tgp._send_tgp_message" in image_uses
    assert "_terminal.get_cell_size._result" in image_uses


def test_the_check_sees_private_members_reached_on_other_objects() -> None:
    source = textwrap.dedent(
        """
        import httpx
        from textual import keys

        def peek(widget, response):
            widget.app._keymap
            keys._character_to_key("?")
            httpx._models
            return response._content
        """
    )
    found = "\n".join(private_uses_in(source, "screen_analysis"))
    for use in ("widget.app._keymap", "keys._character_to_key", "httpx._models", "._content"):
        assert use in found, found
