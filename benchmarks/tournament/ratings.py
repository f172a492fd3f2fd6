"""OpenSkill (Plackett-Luce) ratings of a tournament's agents."""
from __future__ import annotations

from typing import Sequence

from .games import GameRecord


def openskill_ratings(records: Sequence[GameRecord], labels: Sequence[str]) -> dict[str, dict[str, float]]:
    """Plackett-Luce ratings updated game by game in record order.

    Each seat is a one-member team; when an agent holds several seats at a table, it moves by the
    mean of its seats' updates (its copies are not independent players).
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = [model.rating(name=lab) for lab in labels]
    for rec in records:
        if len(set(rec.lineup)) < 2:
            continue
        teams = [[model.rating(mu=ratings[i].mu, sigma=ratings[i].sigma)] for i in rec.lineup]
        new = model.rate(teams, ranks=list(rec.ranks))
        for i in set(rec.lineup):
            seats = [s for s, j in enumerate(rec.lineup) if j == i]
            mu = sum(new[s][0].mu for s in seats) / len(seats)
            sigma = sum(new[s][0].sigma for s in seats) / len(seats)
            ratings[i] = model.rating(mu=mu, sigma=sigma, name=labels[i])
    return {
        lab: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for lab, r in zip(labels, ratings)
    }
