"""The learning curve: win rate (with its 95% interval) against each baseline over learner steps."""
from __future__ import annotations

import csv
from collections import defaultdict
from pathlib import Path


def plot_learning_curve(metrics: Path, png: Path, game: str, num_players: int) -> None:
    """The evaluations at `num_players` (the final one also measures the other trained counts)."""
    import matplotlib  # heavy, and needs its backend chosen before pyplot loads

    matplotlib.use("Agg")  # no display on training machines
    import matplotlib.pyplot as plt

    series: dict[str, list[tuple[int, float, float, float]]] = defaultdict(list)
    with open(metrics, newline="") as f:
        for row in csv.DictReader(f):
            if int(row["num_players"]) != num_players or row.get("reverse") == "True":
                continue  # other counts, and the final table's one-bot-against-copies rows
            series[row["baseline"]].append((
                int(row["timesteps"]), float(row["win_rate"]), float(row["ci_low"]), float(row["ci_high"]),
            ))
    fig, ax = plt.subplots(figsize=(7, 4))
    for baseline, points in sorted(series.items()):
        points.sort()
        x = [p[0] for p in points]
        ax.plot(x, [p[1] for p in points], marker="o", ms=3, label=f"vs {baseline}")
        ax.fill_between(x, [p[2] for p in points], [p[3] for p in points], alpha=0.2)
    ax.axhline(1 / num_players, color="grey", ls="--", lw=1, label=f"chance (1/{num_players})")
    ax.set_xlabel("learner steps")
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_ylim(0, 1)
    ax.set_title(f"{game}: policy in a rotating seat vs {num_players - 1} bots")
    ax.legend()
    fig.tight_layout()
    fig.savefig(png, dpi=100)
    plt.close(fig)
