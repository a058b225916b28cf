"""`One(WidgetType)`: a typed attribute for a screen's only widget of a type.

`table = One(AnalysesTable)` on a screen reads as `self.query_one(AnalysesTable)`.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar, overload

from textual.dom import DOMNode
from textual.widget import Widget

W = TypeVar("W", bound=Widget)


class One(Generic[W]):
    """The one widget of `kind` below the node the attribute is read on."""

    def __init__(self, kind: type[W]) -> None:
        self.kind = kind

    @overload
    def __get__(self, node: None, owner: Any) -> One[W]: ...

    @overload
    def __get__(self, node: DOMNode, owner: Any) -> W: ...

    def __get__(self, node: DOMNode | None, owner: Any) -> One[W] | W:
        if node is None:
            return self
        return node.query_one(self.kind)
