"""A bounded in-memory LRU of prepared (decoded, resized) images."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image


DEFAULT_BUDGET_BYTES = 48 * 1024 * 1024


class PreparedImages:
    """Prepared images by key, evicting the least recently used past `budget_bytes`."""

    def __init__(self, budget_bytes: int = DEFAULT_BUDGET_BYTES) -> None:
        self.budget_bytes = budget_bytes
        self._items: OrderedDict[Hashable, Image.Image] = OrderedDict()
        self._bytes = 0

    def __len__(self) -> int:
        return len(self._items)

    @property
    def size_bytes(self) -> int:
        """Bytes of pixel data held."""
        return self._bytes

    def get(self, key: Hashable) -> Image.Image | None:
        """The image for `key`, now the most recently used, or None."""
        image = self._items.get(key)
        if image is not None:
            self._items.move_to_end(key)
        return image

    def put(self, key: Hashable, image: Image.Image) -> None:
        """Keep `image`; older ones go while over budget (the newest always stays)."""
        old = self._items.pop(key, None)
        if old is not None:
            self._bytes -= _cost(old)
        self._items[key] = image
        self._bytes += _cost(image)
        while self._bytes > self.budget_bytes and len(self._items) > 1:
            _key, evicted = self._items.popitem(last=False)
            self._bytes -= _cost(evicted)


def _cost(image: Image.Image) -> int:
    return image.width * image.height * len(image.getbands())
