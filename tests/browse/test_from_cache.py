"""What of a project list the local cache gave (`browse.projects.FromCache`): asked for
once named or looked at, the server's once fetched, and what a refused key takes away."""

from __future__ import annotations

from screen_analysis.browse.projects.from_cache import FromCache


def test_a_refused_key_drops_what_the_cache_alone_gave_and_unloads_the_rest() -> None:
    cached = FromCache()
    cached.kept("p_kept", new=True)  # one of the cache's projects, listed for it
    cached.kept("p_user", new=False)  # also on the user's list
    assert cached.named(["p_rows", "p_both"], ["p_rows", "p_both"], kept=True) == []
    assert cached.named(["p_both", "p_server"], ["p_server"], kept=False) == []
    dropped, unloaded = cached.forget()
    assert dropped == {"p_kept", "p_rows"}
    assert unloaded == ["p_both", "p_user"], "named by something else too: shown not loaded"
    assert cached.forget() == (set(), []), "nothing is the cache's any more"


def test_a_project_fetched_is_the_servers() -> None:
    cached = FromCache()
    cached.kept("p1", new=True)
    cached.named(["p2"], ["p2"], kept=True)
    cached.fetched("p1")
    cached.fetched("p2")
    assert cached.forget() == (set(), [])


def test_a_kept_project_is_asked_for_once_named_or_looked_at() -> None:
    cached = FromCache()
    for project_id in ("p1", "p2", "p3"):
        cached.kept(project_id, new=True)
    assert cached.named(["p3", "p9", "p1", "p3"], ["p9"], kept=False) == ["p3", "p1"]
    assert cached.named(["p1", "p3"], [], kept=False) == [], "asked for once"
    assert cached.looked_at("p2") and not cached.looked_at("p2")
    assert not cached.looked_at("p9"), "never the cache's"
    dropped, unloaded = cached.forget()
    assert dropped == {"p2"} and unloaded == ["p1", "p3"]
