"""The six kinds of screen the demo draws, one function each, so a list looks like a list
and a form like a form: `LAYOUTS[kind](painter)` fills the painter's picture.

- list: a title and a search field over rows (avatar, two lines, a value, a divider)
- form: a panel of labelled fields and a wide submit button
- landing: a hero band with a large headline and the call to action, then three features
- dashboard: a sidebar, figure tiles, a line chart and a bar chart
- detail: a large picture beside (or above) the title, facts, the button and paragraphs
- cards: a headline over a grid of cards, each an image and two lines
"""

from __future__ import annotations

from collections.abc import Callable

from screen_analysis.demo.painter import Painter


def list_screen(p: Painter) -> None:
    """Rows down to the bottom; the button beside the title."""
    u, w = p.unit, p.width
    top = p.nav_bar() + u
    title_end = p.headline(2 * u, top, w // 2)
    if p.mobile:
        p.button(2 * u, title_end, 0.7)
        y = title_end + 3 * u
    else:
        p.button(w - 14 * u, top, 0.8)
        y = title_end
    p.box((2 * u, y, w - 2 * u, y + int(1.8 * u)), outline=p.line)  # search
    p.text_lines(3 * u, y + int(0.6 * u), w // 4, 1, p.body, p.muted)
    y += 3 * u
    row = int(2.5 * u)
    while y + row < p.height - u:
        x = 2 * u + p.jitter()
        p.draw.ellipse((x, y, x + int(1.6 * u), y + int(1.6 * u)), fill=p.tint())
        p.text_lines(x + int(2.4 * u), y + 1, int(w * 0.4), 1, p.body)
        p.text_lines(x + int(2.4 * u), y + int(0.9 * u), int(w * 0.25), 1, p.body, p.muted)
        value = w - 2 * u - (4 if p.mobile else 7) * u
        p.box((value + p.jitter(), y + u // 2, w - 2 * u, y + u // 2 + p.body), fill=p.text)
        p.box((2 * u, y + row - u // 2, w - 2 * u, y + row - u // 2), fill=p.line)
        y += row


def form_screen(p: Painter) -> None:
    """A title, then a panel of fields in one column (two on a wide screen)."""
    u, w = p.unit, p.width
    y = p.headline(2 * u, p.nav_bar() + u, w // 2)
    left, right = (u, w - u) if p.mobile else (w // 6, w - w // 6)
    p.box((left, y, right, p.height - u), fill=p.surface)
    inner = right - left - 4 * u
    columns = 1 if p.mobile else 2
    field_w = (inner - (columns - 1) * 2 * u) // columns
    y += 2 * u
    column = 0
    while y + 6 * u < p.height - 2 * u:
        x = left + 2 * u + column * (field_w + 2 * u) + p.jitter()
        p.text_lines(x, y, field_w // 3, 1, p.body)
        p.box((x, y + u, x + field_w, y + u + int(1.8 * u)), fill=p.background, outline=p.line)
        column = (column + 1) % columns
        if column == 0:
            y += 4 * u
    p.button(left + 2 * u, p.height - 4 * u, inner / (10 * u) if not p.mobile else 1.4)


def landing_screen(p: Painter) -> None:
    """A hero band with the headline and the button, then three features below."""
    u, w = p.unit, p.width
    top = p.nav_bar()
    hero_end = int(p.height * 0.55)
    p.box((0, top, w, hero_end), fill=p.tint())
    y = p.headline(w // 6, top + 3 * u, int(w * 0.66))
    y = p.text_lines(w // 6, y, int(w * 0.55), 2, p.body) + u
    p.button(w // 6, y, 1.2)
    features = 1 if p.mobile else 3
    width = (w - 4 * u - (features - 1) * 2 * u) // features
    y = hero_end + 2 * u
    while y + 5 * u < p.height:
        for index in range(features):
            x = 2 * u + index * (width + 2 * u) + p.jitter()
            p.draw.ellipse((x, y, x + 2 * u, y + 2 * u), fill=p.accent())
            p.text_lines(x, y + 3 * u, width, 2, p.body)
        y += 7 * u


def dashboard_screen(p: Painter) -> None:
    """A sidebar (wide screens), a row of figure tiles, a line chart and a bar chart."""
    u, w = p.unit, p.width
    top = p.nav_bar()
    left = 2 * u
    if not p.mobile:
        left = w // 5
        p.box((0, top, left - u, p.height), fill=p.surface)
        p.text_lines(u, top + 2 * u, left - 3 * u, 6, p.body, p.muted)
    y = p.headline(left, top + u, (w - left) // 2)
    tiles = 2 if p.mobile else 3
    tile_w = (w - left - 2 * u - (tiles - 1) * u) // tiles
    for index in range(tiles):
        x = left + index * (tile_w + u) + p.jitter()
        p.box((x, y, x + tile_w, y + 5 * u), fill=p.surface)
        p.text_lines(x + u, y + u, tile_w // 2, 1, p.body, p.muted)
        p.text_lines(x + u, y + int(2.5 * u), tile_w // 2, 1, int(1.5 * u))
    y += 6 * u
    chart_h = max(6 * u, (p.height - y - 2 * u) // 2)
    right = w - 2 * u
    p.box((left, y, right, y + chart_h), outline=p.line)
    steps = 12
    points = [
        (
            left + u + (right - left - 2 * u) * i // steps,
            y + chart_h - u - int((chart_h - 2 * u) * p.rng.uniform(0.2, 0.9)),
        )
        for i in range(steps + 1)
    ]
    p.draw.line(points, fill=p.accent(), width=max(2, u // 4))
    y += chart_h + u
    bars = 8
    slot = (right - left) // bars
    for index in range(bars):
        height = int((p.height - y - u) * p.rng.uniform(0.3, 1.0))
        x = left + index * slot + u // 2
        p.box((x, p.height - u - height, x + slot - u, p.height - u), fill=p.accent())
    p.button(right - 10 * u, top + u, 0.6)


def detail_screen(p: Painter) -> None:
    """A large picture with the title, facts, the button and paragraphs beside or below."""
    u, w = p.unit, p.width
    top = p.nav_bar() + u
    if p.mobile:
        media = (0, top - u, w, top + int(p.height * 0.3))
        x, y, text_w = 2 * u, media[3] + u, w - 4 * u
    else:
        media = (2 * u, top, w // 2, top + int(p.height * 0.5))
        x, y, text_w = w // 2 + 2 * u, top, w // 2 - 4 * u
    p.box(media, fill=p.tint())
    mx0, my0, mx1, my1 = media
    sun = (mx1 - mx0) // 6
    p.draw.ellipse(
        (mx1 - 2 * sun, my0 + sun // 2, mx1 - sun, my0 + sun + sun // 2), fill=p.accent()
    )
    p.draw.polygon(
        [(mx0, my1), (mx0 + (mx1 - mx0) // 3, my0 + (my1 - my0) // 2), ((mx0 + mx1) // 2, my1)],
        fill=p.accent(),
    )
    y = p.headline(x, y, text_w)
    y = p.text_lines(x, y, text_w // 2, 2, p.body, p.muted) + u
    p.text_lines(x, y, text_w // 4, 1, int(1.4 * u))
    box = p.button(x, y + 3 * u, 1.0)
    y = max(box[3], my1) + 2 * u
    while y + 2 * u < p.height:
        y = p.text_lines(2 * u, y, w - 4 * u, 3, p.body) + u


def cards_screen(p: Painter) -> None:
    """A headline, a line of text and the button, then a grid of cards to the bottom."""
    u, w = p.unit, p.width
    y = p.headline(2 * u, p.nav_bar() + 2 * u, int(w * 0.6))
    y = p.text_lines(2 * u, y, int(w * 0.5), 1, p.body) + u
    box = p.button(2 * u, y)
    y = box[3] + 2 * u
    count = 2 if w < 400 else 4
    card_w = (w - 4 * u - (count - 1) * u) // count
    card_h = int(card_w * 1.1)
    while y + card_h // 2 < p.height - u:
        for index in range(count):
            x = 2 * u + index * (card_w + u) + p.jitter()
            card_top = y + p.jitter()
            p.box((x, card_top, x + card_w, card_top + card_h), fill=p.surface)
            p.box((x + 4, card_top + 4, x + card_w - 4, card_top + card_h // 2), fill=p.accent())
            p.text_lines(x + 6, card_top + card_h // 2 + 6, card_w - 12, 2, p.body)
        y += card_h + u


LAYOUTS: dict[str, Callable[[Painter], None]] = {
    "list": list_screen,
    "form": form_screen,
    "landing": landing_screen,
    "dashboard": dashboard_screen,
    "detail": detail_screen,
    "cards": cards_screen,
}
