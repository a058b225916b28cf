"""Where the app was left on one server and profile: the project, the status tab and the
analysis picked (by id), so the next start reopens there, as k9s and lazygit do."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from screen_analysis.state.file import (
    MAX_PROFILES,
    PLACE_FIELDS,
    StateData,
    change_state,
    read_state,
)


class Place(NamedTuple):
    """A place in the main view: a project (None: all), a status (None: all) as the API
    names it, and the analysis picked (None: none yet)."""

    project_id: str | None = None
    status: str | None = None
    analysis_id: str | None = None


class RememberedPlace:
    """The last place on `server` with `profile` (None: no profile), read from the state
    file when made and written back, merged under the file's lock, when it changes.

    Reads only: a damaged file is `RememberedProjects`'s to set aside and warn of; here it
    means no place (the app opens on the first view) and no write."""

    def __init__(self, path: Path, server: str, profile: str | None = None) -> None:
        self.path = path
        self.server = server
        self.profile = profile or ""
        state, problem = read_state(path)
        entry = state.places.get(server, {}).get(self.profile)
        self.place: Place | None = None
        if entry is not None and problem is None:
            self.place = Place(*(entry.get(field) for field in PLACE_FIELDS))
        self._written = self.place

    def remember(self, place: Place) -> None:
        """Keep `place` for the next start (nothing is written when it did not change); a
        file that cannot be read or written is not fatal (the place is then not kept)."""
        if place == self._written:
            return
        server, profile = self.server, self.profile
        entry = dict(zip(PLACE_FIELDS, place, strict=True))

        def apply(state: StateData) -> StateData:
            places = dict(state.places)
            profiles = {k: v for k, v in places.pop(server, {}).items() if k != profile}
            profiles[profile] = entry
            places[server] = dict(list(profiles.items())[-MAX_PROFILES:])
            return state._replace(places=places)

        try:
            written = change_state(self.path, apply)
        except (OSError, ValueError):  # ValueError: not UTF-8
            return
        if written is not None:
            self._written = place
