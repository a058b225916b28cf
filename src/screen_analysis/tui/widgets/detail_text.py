"""The detail pane's text as `Content`, from an analysis: no widgets, no Textual app.

Colours are named by theme variable (`$status-failed`, `$score-good`, …) and resolved when
the text is drawn, so a theme change repaints them. Server text is cleaned here, at the
edge, and never read as markup.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from urllib.parse import urlsplit

from rich.cells import cell_len
from textual.content import Content

from screen_analysis.api.models import CRITERIA, Analysis, AnalysisItem, AnalysisStatus
from screen_analysis.numbers import DASH, format_count, format_score, format_weights
from screen_analysis.safe_text import DISPLAY_LIMIT, clean
from screen_analysis.tui.formatting import hanging, status_class, status_glyph, status_word
from screen_analysis.tui.project_book import KnownProject
from screen_analysis.tui.widgets.score_bar import bar_cells, score_tier, texture
from screen_analysis.words import end_ellipsis, local_time, middle_ellipsis

NAME_CELLS = 18  # the longest title, "CTA effectiveness", and a space
VALUE_CELLS = 5
WEIGHT_CELLS = 7  # " w 0.15"
MIN_BAR_CELLS = 3  # narrower than this, the line shows the numbers only

SECTION = "bold $foreground-muted"
MUTED = "$foreground-muted"
TIER_STYLE = {
    "-high": "$score-good",
    "-mid": "$score-fair",
    "-low": "$score-poor",
    "-out-of-range": "$status-unknown",
    "-none": "$score-bar-fill",
}
NL = Content("\n")


def weights_note(known: KnownProject | None) -> str:
    """Where the weights come from, in a line."""
    if known is None or known.state in ("loading", "queued"):
        return "Weights: loading project…"
    if known.project is None:
        return "Weights: unknown (project not available)"
    if known.project.default_criteria is None:
        return "Weights: platform defaults"
    return "Weights: set by the project"


def number(value: object) -> float | None:
    """A score or weight as a float; None for anything that is not a number."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        return float(value)
    except OverflowError:  # an integer beyond 1e308: still shown as beyond any scale
        return float("inf") if value > 0 else float("-inf")


def status_text(item: Analysis) -> str:
    """Glyph, word and score (or why there is none)."""
    status = f"{status_glyph(item.status)} {status_word(item.status)}"
    if item.score is not None:
        return f"{status} · score {format_score(item.score)}"
    waiting = item.known_status in (AnalysisStatus.PENDING, AnalysisStatus.PROCESSING)
    return f"{status} · not scored yet" if waiting else f"{status} · no score"


def head(item: AnalysisItem | None, *, with_label: bool = True) -> Content:
    """Label and status (the status alone without `with_label`: the pane's title shows
    the label), or why there is nothing to show."""
    if not isinstance(item, Analysis):
        message = "No analysis selected."
        if item is not None:
            message = "This row could not be read: " + clean(item.reason, limit=DISPLAY_LIMIT)
        return Content.styled(message, f"italic {MUTED}")
    status = Content.styled(status_text(item), f"$status-{status_class(item.status)}")
    if not with_label:
        return status
    shown = clean(item.label, limit=DISPLAY_LIMIT) or "(no label)"
    label = Content.styled(shown, "bold $foreground")
    note = cut_note(item.label)
    if note:
        return Content.assemble(label, NL, Content.styled(note, f"italic {MUTED}"), NL, status)
    return Content.assemble(label, NL, status)


def shown_value(value: object) -> str:
    """A criterion's value as its line shows it ("—" when it is not a number)."""
    score = number(value)
    return DASH if score is None else format_score(score)


def cut_note(text: object) -> str:
    """What a text cut for display leaves out ("" when it is whole): its length, since
    a view shows `DISPLAY_LIMIT` characters of it (the export writes it whole)."""
    if not isinstance(text, str) or len(text) <= DISPLAY_LIMIT:
        return ""
    return (
        f"(the first {format_count(DISPLAY_LIMIT)} of {format_count(len(text))} characters; "
        "an export has it whole)"
    )


def criterion_line(
    title: str,
    value: object,
    weight: str | None,
    width: int,
    *,
    weights: bool = True,
    textured: bool = False,
    value_cells: int = VALUE_CELLS,
) -> Content:
    """Name, bar, the value as sent (bar clamped to 0–100) and, with `weights`, the weight
    (already formatted for its column); one line of `width` cells (the bar takes what the
    rest leaves). The value keeps a space before it however wide it is ("1e308"), so it
    never runs into the bar; `value_cells` lines a column of values up. `textured`: the
    bar's shade tells its tier (16 colours, NO_COLOR)."""
    score = number(value)
    shown = shown_value(value)
    value_cells = max(value_cells, len(shown) + 1)
    fixed = NAME_CELLS + value_cells + (WEIGHT_CELLS if weights else 0)
    room = width - fixed
    tier = score_tier(score)
    fill = texture(tier) if textured else None
    filled, empty = bar_cells(score, room if room >= MIN_BAR_CELLS else 0, fill)
    parts = [
        Content(title[: NAME_CELLS - 1].ljust(NAME_CELLS)),
        Content.styled(filled, TIER_STYLE[tier]),
        Content.styled(empty, "$score-bar-empty"),
        Content(shown.rjust(value_cells)),
    ]
    if weights:
        text = "" if not weight else f"w {weight}"
        parts.append(Content.styled(text.rjust(WEIGHT_CELLS), MUTED))
    return Content.assemble(*parts)


def criteria_lines(
    breakdown: Mapping[str, object],
    weights: Mapping[str, object],
    width: int,
    *,
    show_weights: bool = True,
    textured: bool = False,
) -> Iterator[Content]:
    """One line per documented criterion, the weights with the same decimals down the
    column ("0.15", "0.20"); `textured` as for `criterion_line`."""
    values = [number(weights.get(criterion.value)) for criterion in CRITERIA]
    shown = format_weights(values)
    widest = max(len(shown_value(breakdown.get(c.value))) for c in CRITERIA)
    for criterion, value, text in zip(CRITERIA, values, shown, strict=True):
        yield criterion_line(
            criterion.title,
            breakdown.get(criterion.value),
            None if value is None else text,
            width,
            weights=show_weights,
            textured=textured,
            value_cells=max(VALUE_CELLS, widest + 1),
        )


def scores(
    item: AnalysisItem | None, known: KnownProject | None, width: int, *, textured: bool = False
) -> Content:
    """The score per criterion (bars sized to `width`, `textured` as for `criterion_line`),
    when the analysis has scores."""
    if not isinstance(item, Analysis):
        return Content("")
    if item.breakdown is None and item.known_status is not AnalysisStatus.COMPLETED:
        return Content("")
    return _join(_scores(item, known, width, textured))


def rest(
    item: AnalysisItem | None,
    known: KnownProject | None,
    image_address: str,
    width: int,
    image_keys: Sequence[str] = (),
) -> Content:
    """Feedback (each sentence's lines hang under its text), error and details, in
    sections; long values fit `width` (cut in the middle, never wrapped mid-token). Under
    the image's address, how to see it (`image_keys`: "i full screen", as bound now)."""
    if not isinstance(item, Analysis):
        if item is None or item.id is None:
            return Content("")
        return _join([*_section("Details"), Content("ID  " + clean(item.id, limit=DISPLAY_LIMIT))])
    lines: list[Content] = []
    sentences = (clean(line, limit=DISPLAY_LIMIT) for line in item.feedback or [])
    feedback = [sentence for sentence in sentences if sentence]
    if feedback:
        lines += _section("Feedback")
        lines += [wrapped for line in feedback for wrapped in hanging("• ", line, width)]
    if item.error_message:
        error = clean(item.error_message, single_line=False, limit=DISPLAY_LIMIT)
        lines += [*_section("Error"), Content.styled(error, "$status-failed")]
    details = _details(item, known, image_address, width, image_keys)
    lines += [*_section("Details"), *map(Content, details)]
    return _join(lines)


def body(
    item: AnalysisItem | None, known: KnownProject | None, image_address: str, width: int
) -> Content:
    """Scores, then feedback, error and details (what `scores` and `rest` show, together)."""
    top = scores(item, known, width)
    if not top.plain:
        return rest(item, known, image_address, width)
    return _join([Content(""), top, rest(item, known, image_address, width)])


def _scores(
    item: Analysis, known: KnownProject | None, width: int, textured: bool
) -> list[Content]:
    breakdown: Mapping[str, object] = item.breakdown or {}
    weights: Mapping[str, object] = {}
    if known is not None and known.project is not None:
        weights = known.project.default_criteria or {}
    documented = {c.value for c in CRITERIA}
    extra = [
        Content(f"{clean(key, limit=DISPLAY_LIMIT)}: {format_score(number(value))}")
        for key, value in breakdown.items()
        if key not in documented
    ]
    return [
        *_section("Scores"),
        Content(weights_note(known)),
        *criteria_lines(breakdown, weights, width, textured=textured),
        *extra,
    ]


DETAIL_NAME_CELLS = 11  # "Completed  "


def image_place(address: str, cells: int) -> str:
    """The image's address in `cells`: whole when it fits, else where the image is ("on
    the API server", "on cdn.example.com"): a path cut in the middle tells nothing, and
    the key that copies the address copies it whole."""
    address = clean(address, limit=DISPLAY_LIMIT)
    if not address or cell_len(address) <= cells:
        return address or DASH
    url = address.split()[0]  # a display form may follow the address ("  (API server)")
    parts = urlsplit(url)
    if parts.scheme in ("http", "https") and parts.hostname:
        return "on " + middle_ellipsis(parts.hostname, max(1, cells - 3))
    if not parts.scheme and url.startswith("/"):
        return "on the API server"  # a path: relative to the API the client talks to
    return middle_ellipsis(address, cells)


def project_lines(project_id: str, name: str | None, cells: int) -> list[str]:
    """The project as "Name (proj_…)" when that fits in `cells`; else the name on its own
    (cut at the end) and the id on the next line in brackets (cut in the middle)."""
    if name is None:
        return [middle_ellipsis(project_id, cells)]
    together = f"{name} ({project_id})"
    if cell_len(together) <= cells:
        return [together]
    return [end_ellipsis(name, cells), "(" + middle_ellipsis(project_id, max(1, cells - 2)) + ")"]


def image_keys_line(parts: Sequence[str], cells: int) -> str:
    """How to see the image ("i full screen · o in a browser · Y copies the URL") in
    `cells`: the last parts give way first; "" when not even the first fits."""
    for count in range(len(parts), 0, -1):
        line = " · ".join(parts[:count])
        if cell_len(line) <= cells:
            return line
    return ""


def _details(
    item: Analysis,
    known: KnownProject | None,
    image_address: str,
    width: int,
    image_keys: Sequence[str] = (),
) -> list[str]:
    room = max(8, width - DETAIL_NAME_CELLS)
    name = None
    if known is not None and known.project is not None:
        name = clean(known.project.name, limit=DISPLAY_LIMIT) or DASH
    project = project_lines(clean(item.project_id, limit=DISPLAY_LIMIT) or DASH, name, room)
    rows = [
        ("Created", middle_ellipsis(local_time(item.created_at), room)),
        ("Completed", middle_ellipsis(local_time(item.completed_at), room)),
        ("Image", image_place(image_address, room)),
        *(("", how) for how in [image_keys_line(image_keys, room)] if how and image_address),
        ("ID", middle_ellipsis(clean(item.id, limit=DISPLAY_LIMIT) or DASH, room)),
        ("Project", project[0]),
        *(("", more) for more in project[1:]),
    ]
    return [title.ljust(DETAIL_NAME_CELLS) + value for title, value in rows]


def _section(title: str) -> list[Content]:
    return [Content(""), Content.styled(title, SECTION)]


def _join(lines: list[Content]) -> Content:
    return NL.join(lines)
