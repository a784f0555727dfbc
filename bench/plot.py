#!/usr/bin/env python3
"""Bar chart of clcpu_bench speedups (B time / A time) from its --json file.

Usage: python3 bench/plot.py bench.json out.png
Bars right of 1 mean platform A is faster; log scale. Benchmarks that did
not run on both platforms are listed as n/a (or FAIL) instead of a bar.
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def short(name):
    return "PoCL" if name == "Portable Computing Language" else name


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        data = json.load(f)
    if "benchmarks" not in data:
        sys.exit("plot.py: the JSON has no \"benchmarks\" array (a --threads "
                 "run? bench/plot_scaling.py charts those)")
    if not data.get("b"):
        sys.exit("plot.py: the JSON has one platform only (--b none)")
    a, b = (short(data[p]["name"]) for p in ("a", "b"))
    names, ratios, labels = [], [], []
    for bench in data["benchmarks"]:
        names.append(bench["name"])
        ratio = bench.get("speedup")
        ratios.append(ratio if ratio else 0.0)
        if ratio:
            labels.append(f"{ratio:.2f}x")
        else:
            status = [bench[p]["status"] for p in ("a", "b")]
            labels.append("/".join(status))
    names.reverse(), ratios.reverse(), labels.reverse()

    fig, ax = plt.subplots(figsize=(8, 0.38 * len(names) + 1.6))
    colors = ["#3b7dd8" if r >= 1 else "#d8643b" for r in ratios]
    # Bars grow from 1 (equal speed) towards the ratio.
    ax.set_xscale("log")
    bars = ax.barh(names, [r - 1 if r > 0 else 0 for r in ratios],
                   left=1.0, color=colors)
    ax.axvline(1.0, color="black", linewidth=0.8)
    lo = min([r for r in ratios if r > 0] + [1.0]) / 2.5
    hi = max([r for r in ratios if r > 0] + [1.0]) * 1.6
    ax.set_xlim(lo, hi)
    for bar, ratio, label in zip(bars, ratios, labels):
        y = bar.get_y() + bar.get_height() / 2
        if ratio >= 1 or ratio == 0:
            ax.text(max(ratio, 1.0) * 1.04, y, label, va="center", fontsize=8)
        else:
            ax.text(ratio / 1.04, y, label, va="center", ha="right",
                    fontsize=8)
    ax.set_xlabel(f"speedup of {a} over {b} = time {b} / time {a} "
                  f"(log scale; > 1: {a} faster)")
    cpu = data.get("cpu", "")
    ax.set_title(f"clcpu_bench: {a} vs {b}\n{cpu}, {data.get('threads')} "
                 f"threads, median of {data.get('reps')}", fontsize=10)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)


if __name__ == "__main__":
    main()
