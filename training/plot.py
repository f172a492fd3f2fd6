"""The learning curve: win rate (with its 95% interval) against each baseline over learner steps."""
from __future__ import annotations

import csv
from collections import defaultdict
from pathlib import Path


def plot_learning_curve(metrics: Path, png: Path, game: str) -> None:
    import matplotlib

    matplotlib.use("Agg")  # no display on training machines
    import matplotlib.pyplot as plt

    series: dict[str, list[tuple[int, float, float, float, int]]] = defaultdict(list)
    with open(metrics, newline="") as f:
        for row in csv.DictReader(f):
            series[row["baseline"]].append((
                int(row["timesteps"]), float(row["win_rate"]), float(row["ci_low"]), float(row["ci_high"]),
                int(row["num_players"]),
            ))
    fig, ax = plt.subplots(figsize=(7, 4))
    players = 0
    for baseline, points in sorted(series.items()):
        points.sort()
        x = [p[0] for p in points]
        ax.plot(x, [p[1] for p in points], marker="o", ms=3, label=f"vs {baseline}")
        ax.fill_between(x, [p[2] for p in points], [p[3] for p in points], alpha=0.2)
        players = points[-1][4]
    if players:
        ax.axhline(1 / players, color="grey", ls="--", lw=1, label=f"chance (1/{players})")
    ax.set_xlabel("learner steps")
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_ylim(0, 1)
    ax.set_title(f"{game}: policy in a rotating seat vs {players - 1 if players else '?'} bots")
    ax.legend()
    fig.tight_layout()
    fig.savefig(png, dpi=100)
    plt.close(fig)
