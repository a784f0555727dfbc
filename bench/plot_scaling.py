#!/usr/bin/env python3
"""Scaling chart from the --json file of a clcpu_bench --threads run.

Usage: python3 bench/plot_scaling.py scaling.json out.png
Left: each row's speedup over its value with the fewest workers against the
worker count (log2 axes; the dashed grey line is ideal scaling). Right: the
GB/s rows as % of the host copy with as many threads as workers (the scan
look-back row also shows the host look-back scan). Platform A is drawn
solid, platform B dashed; a point that did not run is left out.
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.ticker import (FixedLocator, FuncFormatter,  # noqa: E402
                               NullLocator)


def short(name):
    return "PoCL" if name == "Portable Computing Language" else name


def series(points, platform, key, scale=1.0):
    """(threads, values) of the points where platform ran and has key."""
    xs, ys = [], []
    for p in points:
        run = p.get(platform)
        if run and run.get("status") == "ok" and run.get(key) is not None:
            xs.append(p["threads"])
            ys.append(run[key] * scale)
    return xs, ys


def legend(ax, rows, colors, names, extra=()):
    """One entry per row (its colour), one per platform (its line style)."""
    handles = [Line2D([], [], color=colors[i % len(colors)], label=name)
               for i, name in rows]
    for (_, line, marker), name in zip(STYLES, names):
        handles.append(Line2D([], [], color="black", linestyle=line,
                              marker=marker, markersize=4, label=name))
    handles.extend(extra)
    ax.legend(handles=handles, fontsize=7, ncol=2)


STYLES = [("a", "-", "o"), ("b", "--", "s")]


def log2_axis(ax, counts):
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(FixedLocator(counts))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xticklabels([str(c) for c in counts])
    ax.set_xlabel("workers (compute units of the sub-device)")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        data = json.load(f)
    if not data.get("scaling"):
        sys.exit("plot_scaling.py: the JSON has no \"scaling\" array "
                 "(run clcpu_bench with --threads)")
    counts = data["scaling_threads"]
    base = data.get("scaling_base_threads", counts[0])
    names = [short(data[p]["name"]) for p in ("a", "b") if data.get(p)]
    rows = {}
    for p in data["scaling"]:
        rows.setdefault(p["name"], []).append(p)

    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5.5))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]

    ideal = [c / base for c in counts]
    left.plot(counts, ideal, color="grey", linestyle=":", linewidth=1.2,
              label="ideal")
    for i, (name, points) in enumerate(rows.items()):
        color = colors[i % len(colors)]
        for platform, line, marker in STYLES:
            xs, ys = series(points, platform, "speedup_vs_base")
            if xs:
                left.plot(xs, ys, line, marker=marker, color=color,
                          markersize=4)
    log2_axis(left, counts)
    left.set_yscale("log", base=2)
    left.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:g}"))
    left.set_ylabel(f"speedup over {base} worker{'s' if base > 1 else ''}")
    left.grid(True, which="major", alpha=0.3)
    ideal_line = Line2D([], [], color="grey", linestyle=":", label="ideal")
    legend(left, list(enumerate(rows)), colors, names, [ideal_line])
    left.set_title("scaling with workers", fontsize=10)

    drawn, memory_rows, host_drawn = False, [], False
    for i, (name, points) in enumerate(rows.items()):
        if not points[0].get("vs_copy"):
            continue
        memory_rows.append((i, name))
        color = colors[i % len(colors)]
        for platform, line, marker in STYLES:
            xs, ys = series(points, platform, "fraction_of_copy", 100.0)
            if xs:
                right.plot(xs, ys, line, marker=marker, color=color,
                           markersize=4)
                drawn = True
        host = [(p["threads"], 100.0 * p["host_lookback_scan_fraction_of_copy"])
                for p in points
                if p.get("host_lookback_scan_fraction_of_copy") is not None]
        if host:
            right.plot([h[0] for h in host], [h[1] for h in host], ":",
                       marker="x", color=color)
            host_drawn = True
    if drawn:
        right.axhline(100.0, color="grey", linestyle=":", linewidth=1.2)
        log2_axis(right, counts)
        right.set_ylabel("% of host copy with as many threads")
        right.set_ylim(bottom=0)
        right.grid(True, which="major", alpha=0.3)
        extra = [Line2D([], [], color="black", linestyle=":", marker="x",
                        label="host look-back scan")] if host_drawn else []
        legend(right, memory_rows, colors, names, extra)
        right.set_title("memory-bound rows against the host copy",
                        fontsize=10)
    else:
        right.set_axis_off()

    who = " vs ".join(names)
    fig.suptitle(f"clcpu_bench --threads: {who}\n{data.get('cpu', '')}, "
                 f"{data.get('threads')} hardware threads, median of "
                 f"{data.get('reps')}{', --quick' if data.get('quick') else ''}",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)


if __name__ == "__main__":
    main()
