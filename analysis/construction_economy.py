"""Where the money of a Construction & Corruption game comes from and goes: per agent, the means of the
final score, contract income, payments to the city (vacation pay and investigations), the net of gifts
and the Keys to the City, and the decisions behind them (workers placed, gifts given, votes for itself,
another seat or the Outsider); per game, the mayors elected and the investigations held (one of the two
each of the seven turns).

    python -m analysis.construction_economy --agents heuristic --games 300
    python -m analysis.construction_economy --agents policies/construction/champion.npz ismcts:200 --games 8

The agent list is cycled over the seats (one agent: every seat plays it), the seats rotate one place
each game, and game g is dealt from seed `--seed` + g. It explains a strength table rather than ranks
agents: which fields elect mayors, who pays the investigations, what the winners did differently.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field

import numpy as np

import corruption_envs
from corruption_envs.bots import make_agent
from corruption_envs.construction.codec import ACTIONS
from corruption_envs.construction.state import GIFT, INCOME, PAYMENT
from corruption_envs.construction.tables import NUM_TURNS, keys_value

from benchmarks.tournament.games import play as play_game

SEAT_FIGURES = ("score", "income", "paid", "gifts", "keys")  # per seat and game, in $10k units (keys: count)
DECISIONS = ("placed", "gave", "vote_self", "vote_other", "vote_outsider")  # per seat and game: counts
COUNTED_BLOCKS = {"place": "placed", "gift": "gave", "outsider": "vote_outsider"}  # action block -> DECISIONS


@dataclass
class Economy:
    """The figures of every seat of every game, with the agent that sat there and whether it won."""

    agents: list[str] = field(default_factory=list)  # the spec of each row
    rows: list[tuple[int, ...]] = field(default_factory=list)  # SEAT_FIGURES per row
    decisions: list[tuple[int, ...]] = field(default_factory=list)  # DECISIONS per row
    won: list[bool] = field(default_factory=list)  # a shared first place counts as won
    mayors: list[int] = field(default_factory=list)  # per game

    def means(self, spec: str | None = None, winners: bool = False) -> dict[str, float] | None:
        """Mean figures of `spec`'s seats (every seat: None), of its won games only with `winners`;
        None when there is no such seat."""
        pick = [i for i, a in enumerate(self.agents) if (spec is None or a == spec) and (self.won[i] or not winners)]
        if not pick:
            return None
        table = np.array([self.rows[i] + self.decisions[i] for i in pick], dtype=float)
        return {name: float(table[:, k].mean()) for k, name in enumerate(SEAT_FIGURES + DECISIONS)}


def seat_money(ledger: list[tuple[int, int, int, int]], n: int) -> tuple[list[int], list[int], list[int]]:
    """Per seat: contract income, what it paid the city, and gifts received minus given."""
    income, paid, gifts = [0] * n, [0] * n, [0] * n
    for kind, a, b, c in ledger:
        if kind == INCOME:
            income[a] += b
        elif kind == PAYMENT:
            paid[a] += c
        elif kind == GIFT:
            gifts[a] -= c
            gifts[b] += c
    return income, paid, gifts


class Counted:
    """An agent whose decisions of one game are counted by DECISIONS (`counts`, from `start_game`)."""

    def __init__(self, agent: object) -> None:
        self.agent = agent
        self.start_game()

    def start_game(self) -> None:
        self.counts = dict.fromkeys(DECISIONS, 0)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        action = self.agent.act(observation, action_mask)
        block, fields = ACTIONS.decode(int(action))
        if block == "vote":
            kind = "vote_self" if fields["seat"] == 0 else "vote_other"  # seats are relative: 0 is me
        else:
            kind = COUNTED_BLOCKS.get(block)
        if kind is not None:
            self.counts[kind] += 1
        return action


def play(agents: list[str], players: int, games: int, seed: int) -> Economy:
    env = corruption_envs.env("construction", num_players=players)
    lineup = [agents[k % len(agents)] for k in range(players)]
    bots = [Counted(make_agent(spec, env, seed=seed + k)) for k, spec in enumerate(lineup)]
    out = Economy()
    for g in range(games):
        seats = [(k + g) % players for k in range(players)]  # seat of lineup member k
        by_seat = {seat: k for k, seat in enumerate(seats)}
        for bot in bots:
            bot.start_game()
        play_game(env, [bots[by_seat[seat]] for seat in range(players)], seed + g)
        state, rules = env.unwrapped.game_state, env.unwrapped.rules
        scores = rules.scores(state)
        income, paid, gifts = seat_money(state.ledger, players)
        for k, seat in enumerate(seats):
            out.agents.append(lineup[k])
            out.rows.append((scores[seat], income[seat], paid[seat], gifts[seat], state.keys[seat]))
            out.decisions.append(tuple(bots[k].counts[name] for name in DECISIONS))
            out.won.append(scores[seat] == max(scores))
        out.mayors.append(sum(state.keys))
    return out


def report(eco: Economy, specs: list[str]) -> str:
    head = "| agent | seats | score | income | paid to the city | gifts net | keys | winners' score / income / paid / keys |"
    lines = [head, "|---|---|---|---|---|---|---|---|"]
    for spec in dict.fromkeys(specs):
        m, w = eco.means(spec), eco.means(spec, winners=True)
        seats = eco.agents.count(spec)
        best = "-" if w is None else f"{w['score']:.1f} / {w['income']:.1f} / {w['paid']:.1f} / {w['keys']:.2f}"
        lines.append(f"| {spec} | {seats} | {m['score']:.1f} | {m['income']:.1f} | {m['paid']:.1f} | "
                     f"{m['gifts']:+.1f} | {m['keys']:.2f} | {best} |")
    lines += ["", "| agent | workers placed | gifts given | votes for itself / another seat / the Outsider |",
              "|---|---|---|---|"]
    for spec in dict.fromkeys(specs):
        m = eco.means(spec)
        lines.append(f"| {spec} | {m['placed']:.2f} | {m['gave']:.2f} | "
                     f"{m['vote_self']:.2f} / {m['vote_other']:.2f} / {m['vote_outsider']:.2f} |")
    mayors = float(np.mean(eco.mayors))
    lines.append(f"\n{len(eco.mayors)} games: {mayors:.2f} mayors elected and {NUM_TURNS - mayors:.2f} "
                 f"investigations a game (money in $10k units; keys are worth {keys_value(1)}, "
                 f"{keys_value(2)}, {keys_value(3)} ... for 1, 2, 3 ...)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m analysis.construction_economy", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agents", nargs="+", required=True, help="agent specs, cycled over the seats")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games {args.games}: give at least 1 game")
    try:
        eco = play(args.agents, args.players, args.games, args.seed)
    except ValueError as e:  # an unknown agent spec, a player count the game does not have
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(report(eco, args.agents))
    return 0


if __name__ == "__main__":
    sys.exit(main())
