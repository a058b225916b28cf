"""Whose data in the local cache a command line means: the demo's, or the configured
server's, with the profile in use. No key is looked up and nothing is sent."""

from __future__ import annotations

from screen_analysis.auth.connection import NotConnected, configured_base_url
from screen_analysis.cache import CacheScope
from screen_analysis.config import Settings
from screen_analysis.state import server_key


def settings_scope(settings: Settings, *, demo: bool) -> CacheScope | NotConnected:
    """The cache scope of `settings` (with the embedded demo when `demo`), or why there is
    no server to have kept anything for."""
    name = settings.profile or ""
    if demo:
        return CacheScope(server_key("", is_demo=True), name)
    address = configured_base_url(settings)
    if isinstance(address, NotConnected):
        return address
    return CacheScope(server_key(address, is_demo=False), name)
