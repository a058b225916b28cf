"""Which of the projects listed came from the local cache, and what a refused key takes away
(headless).

A list of projects (the sidebar) shows some as the cache kept them before the server is
asked: the projects it kept, and the projects its kept rows name. The server's word replaces
them one by one (a project fetched is the server's); a refused key never sees the cache, so
what it alone gave goes: a project listed for the cache alone is dropped, one that something
else named too (the user's list, the server's rows) stays, shown as not loaded.
"""

from __future__ import annotations

from collections.abc import Iterable


class FromCache:
    """The projects of a list that the local cache gave, as the list learns of them."""

    def __init__(self) -> None:
        """Nothing from the cache yet."""
        self._unconfirmed: set[str] = set()  # listed as the cache kept them, not asked for yet
        self._shown: set[str] = set()  # shown as the cache gave them, not fetched since
        self._only: set[str] = set()  # of those, listed for the cache alone

    def kept(self, project_id: str, *, new: bool) -> None:
        """A project the cache kept is shown (`new`: listed for it, not before)."""
        if new:
            self._only.add(project_id)
        self._unconfirmed.add(project_id)
        self._shown.add(project_id)

    def named(self, wanted: Iterable[str], new: Iterable[str], *, kept: bool) -> list[str]:
        """Rows name the projects `wanted` (`new`: those listed now for the first time);
        `kept`: rows the cache kept, so a new one is listed for the cache alone, else the
        projects are the server's (or the user's) too. The projects kept and not asked for
        yet that they name: to be asked for now."""
        wanted = list(wanted)
        if kept:
            self._only.update(new)
            self._shown.update(new)
        else:
            self._only.difference_update(wanted)
        confirm = [p for p in dict.fromkeys(wanted) if p in self._unconfirmed]
        self._unconfirmed.difference_update(confirm)
        return confirm

    def looked_at(self, project_id: str) -> bool:
        """The reader looks at `project_id`: whether it was kept and not asked for yet (it
        is to be asked for now)."""
        if project_id not in self._unconfirmed:
            return False
        self._unconfirmed.discard(project_id)
        return True

    def fetched(self, project_id: str) -> None:
        """The server gave `project_id`: it is no longer the cache's."""
        self._shown.discard(project_id)
        self._only.discard(project_id)

    def forget(self) -> tuple[set[str], list[str]]:
        """The key was refused: what the cache alone gave (to drop), and the others it
        gave (to show as not loaded, in order); nothing is the cache's any more."""
        dropped = self._shown & self._only
        unloaded = sorted(self._shown - dropped)
        self._unconfirmed.clear()
        self._shown.clear()
        self._only.clear()
        return dropped, unloaded
