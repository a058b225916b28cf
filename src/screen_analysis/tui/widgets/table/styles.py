"""The analyses table's look: its component classes and default CSS, theme variables only."""

from __future__ import annotations

TABLE_COMPONENT_CLASSES: set[str] = {
    "analyses-table--header",
    "analyses-table--cursor",
    "analyses-table--hover",
    "analyses-table--changed",
    "analyses-table--empty",
    "analyses-table--status-pending",
    "analyses-table--status-processing",
    "analyses-table--status-completed",
    "analyses-table--status-failed",
    "analyses-table--status-unknown",
    "analyses-table--heat-high",
    "analyses-table--heat-mid",
    "analyses-table--heat-low",
    "analyses-table--heat-none",
    "analyses-table--heat-out-of-range",
}

TABLE_CSS = """
AnalysesTable {
    background: $surface;
    color: $foreground;
    overflow-x: hidden;
    overflow-y: auto;
    & > .analyses-table--header {
        background: $panel;
        color: $foreground;
        text-style: bold;
    }
    & > .analyses-table--cursor {
        background: $block-cursor-blurred-background;
        color: $block-cursor-blurred-foreground;
        text-style: $block-cursor-blurred-text-style;
    }
    &:focus > .analyses-table--cursor {
        background: $block-cursor-background;
        color: $block-cursor-foreground;
        text-style: $block-cursor-text-style;
    }
    & > .analyses-table--hover {
        background: $block-hover-background;
    }
    & > .analyses-table--changed {
        background: $accent 35%;
    }
    & > .analyses-table--empty {
        color: $foreground-muted;
        text-style: italic;
    }
    & > .analyses-table--status-pending { color: $status-pending; }
    & > .analyses-table--status-processing { color: $status-processing; }
    & > .analyses-table--status-completed { color: $status-completed; }
    & > .analyses-table--status-failed { color: $status-failed; }
    & > .analyses-table--status-unknown { color: $status-unknown; }
    & > .analyses-table--heat-high { color: $score-good; }
    & > .analyses-table--heat-mid { color: $score-fair; }
    & > .analyses-table--heat-low { color: $score-poor; text-style: bold; }
    & > .analyses-table--heat-none { color: $foreground-muted; }
    & > .analyses-table--heat-out-of-range { color: $foreground-muted; }
}
"""
