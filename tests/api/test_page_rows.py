"""The rows a page keeps: each id once per listing, rows without an id always, the page's
raw items cut alongside its models."""

from __future__ import annotations

from screen_analysis.api.models import Analysis, AnalysisPage, InvalidAnalysis, RawPage
from screen_analysis.api.page_rows import MODEL_ROWS, RAW_ROWS, SeenIds


def analysis(analysis_id: str) -> Analysis:
    return Analysis.model_validate({"id": analysis_id})


def test_an_id_seen_is_known_with_the_page_it_came_on() -> None:
    seen = SeenIds()
    assert seen.fresh([analysis("ana_1")]) == [analysis("ana_1")]
    assert seen.fresh_raw([{"id": "ana_2"}]) == [{"id": "ana_2"}]
    assert (seen.page_of("ana_1"), seen.page_of("ana_2")) == (0, 0)
    assert "ana_1" in seen and "ana_3" not in seen and len(seen) == 2
    assert seen.fresh([analysis("ana_1")], 3) == [] and seen.page_of("ana_1") == 0


def test_rows_without_a_usable_id_always_pass() -> None:
    seen = SeenIds()
    odd = [["not", "an", "object"], "text", {"id": ""}, {"id": 7}, {"no": "id"}]
    assert seen.fresh_raw(odd) == odd and seen.fresh_raw(odd) == odd
    invalid = InvalidAnalysis(reason="r")
    assert seen.fresh([invalid, invalid]) == [invalid, invalid]
    assert len(seen) == 0 and seen.skipped == 0


def test_a_page_of_models_keeps_its_raw_items_beside_the_rows_kept() -> None:
    seen = SeenIds()
    first = AnalysisPage([analysis("ana_1")], raw_items=[{"id": "ana_1"}])
    assert MODEL_ROWS.fresh(first, seen, 1) is first  # nothing cut: the page as it came
    second = AnalysisPage(
        [analysis("ana_1"), analysis("ana_2")], raw_items=[{"id": "ana_1"}, {"id": "ana_2"}]
    )
    kept = MODEL_ROWS.fresh(second, seen, 2)
    assert kept.items == [analysis("ana_2")] and kept.raw_items == [{"id": "ana_2"}]
    assert seen.skipped == 1


def test_raw_items_that_do_not_match_the_rows_are_left_whole() -> None:
    seen = SeenIds()
    raw = [{"id": "ana_1"}, {"id": "ana_2"}]
    page = AnalysisPage([analysis("ana_1"), analysis("ana_1"), analysis("ana_2")], raw_items=raw)
    kept = MODEL_ROWS.fresh(page, seen, 1)
    assert kept.items == [analysis("ana_1"), analysis("ana_2")] and kept.raw_items == raw
    assert MODEL_ROWS.count(kept) == 2
    assert MODEL_ROWS.head(page, 1).items == [analysis("ana_1")]


def test_a_raw_page_keeps_each_id_once_and_its_other_fields() -> None:
    seen = SeenIds()
    first = RawPage([{"id": "a"}], next_cursor="c1", total=3)
    assert RAW_ROWS.fresh(first, seen, 1) is first
    second = RawPage([{"id": "a"}, {"id": "b"}, "odd"], next_cursor="c2", total=3)
    kept = RAW_ROWS.fresh(second, seen, 2)
    assert kept == RawPage([{"id": "b"}, "odd"], next_cursor="c2", total=3)
    assert (seen.page_of("a"), seen.page_of("b")) == (1, 2)
    assert RAW_ROWS.count(kept) == 2
    assert RAW_ROWS.head(second, 1) == RawPage([{"id": "a"}], next_cursor="c2", total=3)


def test_a_window_forgets_whole_pages_not_single_rows() -> None:
    seen = SeenIds(window=2)
    assert seen.take("x") and seen.page_of("x") == 0
    for row in ("a", "b", "c"):
        assert seen.take(row, 1)
    assert not seen.take("a", 2)  # page 1 is within the last two pages
    assert seen.take("d", 3) and seen.take("e", 4)  # two newer pages with rows
    assert seen.take("a", 5)  # page 1 has left the window
