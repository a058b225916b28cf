"""The full run's table: one line per figure, (figure, ours, baseline, ratio, target)."""

from __future__ import annotations

from typing import Any

from . import bounds, floor


def summary_rows(report: dict[str, Any]) -> list[tuple[str, str, str, str, str]]:
    """(figure, ours, baseline, ratio, target) for each line of the table."""
    cold = report["cold_start"]
    rows = [
        (
            "Cold start to first rows painted",
            f"{cold['app_s'] * 1000:.0f} ms",
            f"{cold['baseline_s'] * 1000:.0f} ms (DataTable app)",
            f"{cold['ratio']:.2f}",
            _targets(cold),
        )
    ]
    append = report["append"]
    sizes = append["sizes"]
    for size in sizes:
        ours = append["results"]["AnalysesTable"][str(size)]
        theirs = append["results"]["DataTable"][str(size)]
        rows.append(
            (
                f"Append 100 rows, {size:,} loaded (worst block)",
                f"{ours['median_ms']:.1f} ms",
                f"{theirs['median_ms']:.1f} ms (DataTable)",
                f"{ours['median_ms'] / theirs['median_ms']:.2f}",
                "",
            )
        )
    small, large = min(sizes), max(sizes)
    flat = append["ratios"][f"AnalysesTable {large}/{small}"]
    rows.append(
        (
            f"Append flatness {large:,}/{small:,}",
            f"{flat:.2f}",
            f"{append['ratios'][f'DataTable {large}/{small}']:.2f} (DataTable)",
            "",
            _targets(append),
        )
    )
    for size, run in report["scroll"]["runs"].items():
        ours, baseline = run["app"], run["threshold 0"]
        rows.append(
            (
                f"Scroll stall, 5,000 rows at {size}",
                f"{ours['stall_ms']:.0f} ms",
                f"{baseline['stall_ms']:.0f} ms (threshold 0)",
                f"{run['stall_ratio']:.2f}",
                "0 ms: " + ("met" if ours["stall_ms"] == 0 else "NOT met"),
            )
        )
        rows.append(
            (
                f"Page requests while scrolling, {size}",
                f"{ours['page_requests']}",
                f"{ours['pages_needed']} pages needed",
                f"{ours['page_requests'] / ours['pages_needed']:.2f}",
                "equal: " + ("met" if ours["page_requests"] == ours["pages_needed"] else "NOT met"),
            )
        )
    warm = report["warm_start"]
    rows.append(
        (
            f"First rows from the local cache, server at {warm['latency_ms']} ms",
            f"{warm['app_s'] * 1000:.0f} ms",
            f"{warm['baseline_s'] * 1000:.0f} ms (DataTable app, from the server)",
            f"{warm['ratio']:.2f}",
            "≤ 0.6: "
            + ("met" if warm["ratio"] <= 0.6 else "NOT met")
            + f"; {warm['app_without_cache_s'] * 1000:.0f} ms without the cache",
        )
    )
    switches = report["switches"]
    rows.append(
        (
            f"RSS after {switches['switches']} main-screen switches",
            f"{switches['rss_mb'][str(switches['switches'])]} MB",
            f"{switches['rss_mb']['0']} MB (the first screen)",
            f"{switches['ratio']:.2f}",
            f"left screens alive: {switches['left_screens_alive']}",
        )
    )
    kept = report["cache"]
    rows.append(
        (
            f"Local cache size, {kept['analyses']:,} analyses",
            f"{kept['bytes_per_analysis']:,} B an analysis",
            f"{kept['json_bytes_per_analysis']:,} B (the JSON sent)",
            f"{kept['ratio']:.2f}",
            f"a 100-row view read in {kept['read_100_rows_ms']} ms",
        )
    )
    cost = report["cache_cost"]
    for figure, unit in (("stall", "ms"), ("memory", "bytes")):
        values = cost[f"{figure}_ms" if unit == "ms" else "memory_bytes"]
        ratio = cost[f"{figure}_ratio"]
        rows.append(
            (
                f"Scrolling {cost['rows']:,} rows with the local cache on: {figure}",
                f"{values['cache on']:,.0f} {unit}",
                f"{values['cache off']:,.0f} {unit} (cache off)",
                f"{ratio:.2f}",
                "≤ 1.05: " + ("met" if ratio <= 1.05 else "NOT met"),
            )
        )
    for burst in report["bursts"]["runs"]:
        rows.append(
            (
                f"Page requests for a burst of {burst['presses']} PageDowns",
                f"{burst['page_requests']} (cursor at row {burst['cursor_row']:,})",
                f"{burst['pages_needed']} pages needed",
                f"{burst['ratio']:.2f}",
                "at most needed + 1: " + ("met" if burst["at_most_one_more"] else "NOT met"),
            )
        )
    mem = report["memory"]
    rows.append(
        (
            f"Memory per row, parsed models, {mem['rows']:,} rows",
            f"{mem['model_bytes_per_row']:,} B",
            f"{mem['dict_bytes_per_row']:,} B (dicts)",
            f"{mem['models_ratio']:.2f}",
            "",
        )
    )
    rows.append(
        (
            f"Memory per row, table, {mem['rows']:,} rows",
            f"{mem['table_bytes_per_row']:,} B",
            f"{mem['dict_bytes_per_row']:,} B (dicts)",
            f"{mem['ratio']:.2f}",
            _targets(mem),
        )
    )
    cli = report["cli"]
    rows.append(
        (
            f"CLI jsonl, {cli['analyses']:,} analyses",
            f"{cli['cli_s']:.2f} s",
            f"{cli['bare_httpx_s']:.2f} s (bare httpx)",
            f"{cli['ratio']:.2f}",
            _targets(cli),
        )
    )
    slow = cli["with_latency"]
    rows.append(
        (
            f"CLI jsonl, {slow['analyses']:,} analyses, {cli['latency_ms']:.0f} ms latency",
            f"{slow['cli_s']:.2f} s",
            f"{slow['bare_httpx_s']:.2f} s (bare httpx)",
            f"{slow['ratio']:.2f}",
            _targets(slow),
        )
    )
    rows.extend(check_rows(report["check"]))
    rows.extend(bounds.summary_rows(report["bounds"]))
    if "floor" in report:
        rows.extend(floor.summary_rows(report["floor"]))
    rows.extend(image_rows(report["images"]))
    rows.extend(decode_memory_rows(report["decode_memory"]))
    poll = report["polling"]
    rows.append(
        (
            "Requests per idle refresh round at rows 0 / 1,000 / 10,000",
            " / ".join(f"{r['per_round']:g}" for r in poll["runs"]),
            f"{poll['budget_pages']} (the budget: two pages a round)",
            f"{poll['worst_per_round'] / poll['budget_pages']:.2f}",
            _targets(poll),
        )
    )
    view = report["overview"]
    rows.append(
        (
            f"Overview, {view['analyses']:,} analyses",
            f"{view['overview_s']:.2f} s",
            f"{view['bare_walk_s']:.2f} s (bare walk)",
            f"{view['ratio']:.2f}",
            _targets(view),
        )
    )
    rows.append(
        (
            "Overview peak memory (client side)",
            f"{view['overview_peak_bytes'] / 1e6:.2f} MB",
            f"{view['bare_peak_bytes'] / 1e6:.2f} MB (walk keeping nothing)",
            f"{view['memory_ratio']:.2f}",
            f"held after: {view['overview_held_bytes'] / 1e3:.0f} kB",
        )
    )
    return rows


def check_rows(check: dict[str, Any]) -> list[tuple[str, str, str, str, str]]:
    """The quality gate's lines: `check` against `analyses list --all` over one scope."""
    rows = []
    for key, scope in (("all_projects", "all projects"), ("one_project", "one project")):
        figures = check[key]
        rows.append(
            (
                f"`check` vs `analyses list --all`, {scope}: requests",
                f"{figures['check_requests']}",
                f"{figures['list_requests']} (list --all)",
                f"{figures['request_ratio']:.2f}",
                "",
            )
        )
        rows.append(
            (
                f"`check` vs `analyses list --all`, {scope}: time",
                f"{figures['check_s']:.2f} s",
                f"{figures['list_s']:.2f} s (list --all)",
                f"{figures['time_ratio']:.2f}",
                "",
            )
        )
    wait = check["wait"]
    rows.append(
        (
            "`check --wait`: requests per polling round",
            f"{wait['per_round']:g}",
            f"{wait['budget_pages']} (the budget: two pages a round)",
            f"{wait['per_round'] / wait['budget_pages']:.2f}",
            _targets(check),
        )
    )
    return rows


def image_rows(images: dict[str, Any]) -> list[tuple[str, str, str, str, str]]:
    """The image preview's lines of the table."""
    off = f"{images['images_off_ms']:.0f} ms (images off)"
    decode = images["decode"]
    return [
        (
            f"Highlight → image painted, server at {images['latency_ms']} ms",
            f"{images['from_server_ms']:.0f} ms",
            off,
            f"{images['from_server_ratio']:.2f}",
            "",
        ),
        (
            "Highlight → image painted, disk cache",
            f"{images['from_disk_ms']:.0f} ms",
            off,
            f"{images['from_disk_ratio']:.2f}",
            "",
        ),
        (
            f"Image requests, ↓ held through {images['held']['rows']} rows",
            f"{images['held']['image_requests']}",
            "1 (the row where it stops)",
            f"{images['held']['image_requests']:.2f}",
            _targets(images),
        ),
        (
            "Largest loop block while a 4000×3000 PNG is decoded",
            f"{decode['pipeline_ms']:.1f} ms",
            f"{decode['on_loop_ms']:.0f} ms (decoded on the loop)",
            f"{decode['ratio']:.3f}",
            "",
        ),
    ]


def decode_memory_rows(figures: dict[str, Any]) -> list[tuple[str, str, str, str, str]]:
    """Peak memory preparing the 40-megapixel PNG, for each box."""
    size = f"{figures['file_bytes'] / 1000:.0f} KB PNG of {figures['pixels'] / 1e6:.0f} MP"
    return [
        (
            f"Peak memory preparing a {size} for {box}",
            f"{run['ours_peak_mb']:.0f} MB",
            f"{run['whole_peak_mb']:.0f} MB (decoded whole)",
            f"{run['ratio']:.2f}",
            _targets(figures),
        )
        for box, run in figures["runs"].items()
    ]


def _targets(figures: dict[str, Any]) -> str:
    return "; ".join(
        f"{name}: {'met' if ok else 'NOT met'}" for name, ok in figures["targets"].items()
    )


def format_table(report: dict[str, Any]) -> str:
    """The summary as a Markdown table (readable as plain text too)."""
    head = ("Figure", "Ours", "Baseline", "Ratio", "Target")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in summary_rows(report)]
    info = report["machine"]
    lines.append("")
    lines.append(
        f"{report['mode']} mode, {report['seconds']} s; {info['cpus']} CPUs ({info['cpu']}), "
        f"Python {info['python']}"
    )
    return "\n".join(lines)
