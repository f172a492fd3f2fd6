"""A tournament's reports: text and Markdown tables, the chart, and the files written by --out."""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from corruption_envs.search import is_search_spec
from ..results import Interval, Record, measured
from .scoring import TournamentResult


def _ci(v: float, ci: Sequence[float], fmt: str = "{:.3f}") -> str:
    if any(math.isnan(x) for x in ci):
        return fmt.format(v)
    return f"{fmt.format(v)} [{fmt.format(ci[0])}, {fmt.format(ci[1])}]"


def table_rows(summary: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    head = ["agent", "seats", "win rate [95% Wilson]", "mean rank [95% CI]", "score share [95% CI]",
            "OpenSkill mu", "sigma", "ordinal", "CPU ms/move"]
    rows = []
    ordered = sorted(summary["agents"].items(), key=lambda kv: -kv[1]["rating_ordinal"])
    for lab, a in ordered:
        rows.append([
            lab, str(a["seats"]), _ci(a["win_rate"], a["win_rate_ci"]),
            _ci(a["mean_rank"], a["mean_rank_ci"], "{:.2f}"), _ci(a["score_share"], a["score_share_ci"]),
            f"{a['rating_mu']:.2f}", f"{a['rating_sigma']:.2f}", f"{a['rating_ordinal']:.2f}",
            f"{a.get('cpu_ms_per_move', math.nan):.1f}",
        ])
    return head, rows


def h2h_rows(summary: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    h = summary["head_to_head"]
    labels = h["labels"]
    rows = [
        [lab] + ["-" if v is None else f"{v:.3f}" for v in row]
        for lab, row in zip(labels, h["rows_beat_columns"])
    ]
    return ["row beats column"] + labels, rows


def text_table(head: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(x) for x in col) for col in zip(head, *rows)]
    line = lambda cells: "  ".join(c.ljust(w) for c, w in zip(cells, widths))  # noqa: E731
    return "\n".join([line(head), line(["-" * w for w in widths]), *map(line, rows)])


def markdown_table(head: list[str], rows: list[list[str]]) -> str:
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


def _header(result: TournamentResult) -> str:
    s = result.summary
    return (
        f"{result.game}, players {result.players}, seed {result.seed}: {s['games']} games "
        f"({s['decisions']} decisions) in {result.seconds:.1f}s"
    )


def render_text(result: TournamentResult) -> str:
    parts = [_header(result), "", text_table(*table_rows(result.summary)), "",
             "head-to-head (share of seat pairs at one table where the row agent finished ahead; ties 1/2)",
             text_table(*h2h_rows(result.summary))]
    for n, s in result.by_players.items():
        parts += ["", f"{n} players:", text_table(*table_rows(s))]
    return "\n".join(parts)


def render_markdown(result: TournamentResult, command: str | None = None) -> str:
    parts = [f"### {_header(result)}", ""]
    if command:
        parts += [f"`{command}`", ""]
    parts += [markdown_table(*table_rows(result.summary)), "", "Head-to-head (row finished ahead of column):",
              "", markdown_table(*h2h_rows(result.summary))]
    for n, s in result.by_players.items():
        parts += ["", f"{n} players:", "", markdown_table(*table_rows(s))]
    return "\n".join(parts) + "\n"


def plot(result: TournamentResult, path: Path) -> None:
    """Win rates with Wilson bars, rating ordinals, and the head-to-head heat map, in one PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    s = result.summary
    labels = list(s["agents"])
    a = [s["agents"][lab] for lab in labels]
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5))
    x = np.arange(len(labels))
    wr = np.array([v["win_rate"] for v in a])
    err = np.array([[v["win_rate"] - v["win_rate_ci"][0], v["win_rate_ci"][1] - v["win_rate"]] for v in a]).T
    axes[0].bar(x, wr, yerr=err, capsize=4, color="tab:blue")
    for n in result.players:
        axes[0].axhline(1 / n, ls="--", lw=0.8, color="grey")
    axes[0].set(title="win rate (95% Wilson; dashed: 1/n)", xticks=x, ylim=(0, 1))
    axes[0].set_xticklabels(labels, rotation=20, ha="right")
    axes[1].bar(x, [v["rating_mu"] for v in a], yerr=[3 * v["rating_sigma"] for v in a], capsize=4,
                color="tab:green")
    axes[1].set(title="OpenSkill Plackett-Luce mu +- 3 sigma (ordinal = lower end)", xticks=x)
    axes[1].set_xticklabels(labels, rotation=20, ha="right")
    m = np.array([[np.nan if v is None else v for v in row] for row in s["head_to_head"]["rows_beat_columns"]])
    im = axes[2].imshow(m, vmin=0, vmax=1, cmap="RdYlGn")
    axes[2].set(title="head-to-head: row ahead of column", xticks=x, yticks=x)
    axes[2].set_xticklabels(labels, rotation=20, ha="right")
    axes[2].set_yticklabels(labels)
    for i in range(len(labels)):
        for j in range(len(labels)):
            if not np.isnan(m[i, j]):
                axes[2].text(j, i, f"{m[i, j]:.2f}", ha="center", va="center", fontsize=8)
    fig.colorbar(im, ax=axes[2], fraction=0.046)
    fig.suptitle(_header(result), fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def write_outputs(result: TournamentResult, out: Path, command: str | None = None) -> dict[str, Path]:
    """summary.json, summary.md and chart.png in `out`."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {"json": out / "summary.json", "markdown": out / "summary.md", "png": out / "chart.png"}
    paths["json"].write_text(json.dumps(result.to_json(), indent=1))
    paths["markdown"].write_text(render_markdown(result, command))
    plot(result, paths["png"])
    return paths


RECORD_COLUMNS = (("players", ""), ("agent", ""), ("seats", ","), ("win rate [95% Wilson]", ".3f"),
                  ("mean rank [95% CI]", ".2f"), ("score share [95% CI]", ".3f"), ("OpenSkill ordinal", ".2f"),
                  ("CPU ms/move", ".1f"))


def _interval(v: float, ci: Sequence[float]) -> Interval | float:
    return v if any(math.isnan(x) for x in ci) else Interval(value=v, low=ci[0], high=ci[1])


def _number(x: float | None) -> float | None:
    return None if x is None or math.isnan(x) else x


def tournament_record(result: TournamentResult, command: str) -> Record:
    """The tournament as a results record: each agent at each player count, best OpenSkill ordinal first."""
    rows = []
    for n, s in (result.by_players or {result.players[0]: result.summary}).items():
        for label, a in sorted(s["agents"].items(), key=lambda kv: -kv[1]["rating_ordinal"]):
            rows.append([n, label, a["seats"], _interval(a["win_rate"], a["win_rate_ci"]),
                         _interval(a["mean_rank"], a["mean_rank_ci"]), _interval(a["score_share"], a["score_share_ci"]),
                         a["rating_ordinal"], _number(a.get("cpu_ms_per_move"))])
    title = f"{result.game}, {'/'.join(map(str, result.players))} players: {' '.join(result.specs)}"
    return measured("search" if any(is_search_spec(x) for x in result.specs) else "strength", title, command,
                    RECORD_COLUMNS, rows, games=[result.game], players=list(result.players), seed=result.seed,
                    note=f"{result.summary['games']} games, duplicate play (every deal in every seat rotation).")
