"""A package's names imported from their modules on first use (PEP 562): the one way a
package names what it offers while keeping a costly module (httpx, pydantic) off the paths
that do not use it (`api`, `user_commands`)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def names_on_first_use(package: str, module_of: Mapping[str, str]) -> Callable[[str], Any]:
    """The module `__getattr__` of `package`: a name of `module_of` is imported from its
    module (`package.MODULE`) when first asked for, and kept in the package from then on."""

    def __getattr__(name: str) -> Any:
        module = module_of.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
