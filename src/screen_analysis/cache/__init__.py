"""The local SQLite copy of what the user saw (headless): views, projects and totals of one
server and profile, so the app paints at once and works offline, and the command line can
read what was seen (`--offline`). See `store.LocalCache`."""

from screen_analysis.cache.place import default_cache_path
from screen_analysis.cache.reads import CachedView, CacheScope
from screen_analysis.cache.store import LocalCache

__all__ = ["CacheScope", "CachedView", "LocalCache", "default_cache_path"]
