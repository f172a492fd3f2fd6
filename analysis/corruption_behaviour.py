"""What a Corruption policy does, per round, against a field: which cards it places, where and how.

`python -m analysis.corruption_behaviour --policy BR.npz --field policies/corruption/champion.npz`

The policy sits in a rotating seat of 4-player games against three copies of the field (each playing as
its file says; a mixture draws a member per game), and the table compares its placements with the
field's: per game and round, cards of each kind on contracts, bribes on Swiss accounts, face-down
plays, distinct contracts bid on, mean bribe and mean value of the contracts played on; per game,
Reporter removals and Hit Man kills; and the contracts and score won. Used to read what a best response
(`benchmarks.exploit --save`) exploits.
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter

import corruption_envs
from corruption_envs.bots import make_agent
from corruption_envs.core.rewards import win_shares
from corruption_envs.corruption.codec import ACTIONS
from corruption_envs.corruption.tables import BRIBE_VALUES, CONTRACT_VALUE, KIND_NAMES


def tally(policy: str, field: str, games: int, seed: int, greedy: bool) -> dict[str, object]:
    """Counters of the policy's ('me') and the field's ('field') decisions over `games` games."""
    env = corruption_envs.env("corruption", num_players=4)
    me_agent = make_agent(policy, env, seed=seed, sample=False if greedy else None)
    bots = [make_agent(field, env, seed=seed * 1000 + s) for s in range(4)]
    c: Counter = Counter()
    wins = 0.0
    for g in range(games):
        me = g % 4
        env.reset(seed=seed * 1_000_003 + g)
        for a in (me_agent, *bots):
            a.start_game()
        targets: dict[tuple[int, int], set[int]] = {}
        while not env.terminations[env.agent_selection]:
            name = env.agent_selection
            seat = env.agent_name_mapping[name]
            seen = env.observe(name)
            state = env.unwrapped.game_state
            action = (me_agent if seat == me else bots[seat]).act(seen["observation"], seen["action_mask"])
            who, r = ("me" if seat == me else "field"), state.round
            block, f = ACTIONS.decoded[action]
            if block == "play":
                kind, contract = f["kind"], f["contract"]
                c[who, r, KIND_NAMES[kind]] += 1
                c[who, r, "face-down"] += state.on_contracts[seat] >= r + 1
                c[who, r, "value"] += CONTRACT_VALUE[contract]
                c[who, r, "on contracts"] += 1
                c[who, r, "distinct contracts"] += contract not in targets.setdefault((seat, r), set())
                targets[seat, r].add(contract)
                if kind < len(BRIBE_VALUES):
                    c[who, r, "bribes"] += 1
                    c[who, r, "bribe $k"] += BRIBE_VALUES[kind]
            elif block == "swiss":
                c[who, r, "Swiss"] += 1
            elif block == "decline":
                c[who, "Reporter declines"] += 1
            elif block == "remove":  # seats are relative: 0 is the acting seat itself
                c[who, "Reporter removes own" if f["seat"] == 0 else "Reporter removes other"] += 1
            elif block == "kill":
                c[who, "Hit Man kills own" if f["seat"] == 0 else "Hit Man kills other"] += 1
            env.step(action)
        wins += win_shares([env.infos[a]["rank"] for a in env.possible_agents])[me]
        others = [s for s in range(4) if s != me]
        c["me", "contracts"] += state.won_count[me]
        c["field", "contracts"] += state.won_count[others].sum()
        c["me", "score"] += state.won_value[me]
        c["field", "score"] += state.won_value[others].sum()
    return {"counts": c, "games": games, "win_rate": wins / games}


def report(result: dict[str, object], policy: str, field: str) -> str:
    c, games = result["counts"], result["games"]
    per = {"me": games, "field": 3 * games}  # per player and game
    lines = [f"{policy} vs 3 x {field}, 4 players, {games} games: win rate {result['win_rate']:.3f}"]
    for who in ("me", "field"):
        n = per[who]
        lines.append(f"  {who}: contracts won {c[who, 'contracts'] / n:.2f}, score {c[who, 'score'] / n:.0f}; per game: "
                     + ", ".join(f"{k} {c[who, k] / n:.2f}" for k in (
                         "Reporter removes other", "Reporter removes own", "Reporter declines",
                         "Hit Man kills other", "Hit Man kills own")))
        for r in range(4):
            kinds = " ".join(f"{c[who, r, k] / n:.2f}" for k in KIND_NAMES)
            bribes, placed = max(1, c[who, r, "bribes"]), max(1, c[who, r, "on contracts"])
            lines.append(f"    round {r + 1}: on contracts ({' '.join(KIND_NAMES)}) {kinds}; Swiss {c[who, r, 'Swiss'] / n:.2f}; "
                         f"face-down {c[who, r, 'face-down'] / n:.2f}; distinct contracts "
                         f"{c[who, r, 'distinct contracts'] / n:.2f}; mean bribe ${c[who, r, 'bribe $k'] / bribes:.1f}k; "
                         f"mean contract value {c[who, r, 'value'] / placed:.0f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m analysis.corruption_behaviour", description=__doc__.split("\n")[0])
    p.add_argument("--policy", required=True, help="the policy to read (a spec for make_agent)")
    p.add_argument("--field", required=True, help="what sits in the three other seats")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--greedy", action="store_true", help="the policy plays its argmax (as the probe's best response)")
    args = p.parse_args(argv)
    try:
        if args.games < 1:
            raise ValueError(f"--games {args.games} is not allowed; give an integer >= 1")
        result = tally(args.policy, args.field, args.games, args.seed, args.greedy)
    except ValueError as e:  # a bad spec or policy file (PolicyFileError is a ValueError)
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(report(result, args.policy, args.field))
    return 0


if __name__ == "__main__":
    sys.exit(main())
