"""Golden Corruptia games: seeded games whose every decision is recorded by meaning, not by index.

A change to the action or observation layout must leave the rules untouched. Each game is recorded as the
names of the actions played, one digest per seat over everything that seat was shown when it acted (its
observation vector and the names of its legal actions) and the final scores. Names do not depend on the
layout's indices, so a relaid-out game compares equal exactly when it plays the same.

Record (only when the rules are meant to change): `python -m tests.corruptia.golden`.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import corruption_envs
from corruption_envs.bots import make_agent

GOLDEN_FILE = Path(__file__).with_name("golden_games.json")
# (players, seat bots, seed): every count, random and heuristic seats side by side and alone
CASES = [
    (n, bots, seed)
    for n in (3, 4, 5)
    for bots, seed in ((("heuristic",) * n, 11), ((("random", "heuristic") * 3)[:n], 12), (("random",) * n, 13))
]


def play(num_players: int, bots: tuple[str, ...], seed: int) -> dict:
    env = corruption_envs.env("corruptia", num_players=num_players)
    env.reset(seed=seed)
    rules = env.unwrapped.rules
    agents = {a: make_agent(b, env, seed=seed * 10 + i) for i, (a, b) in enumerate(zip(env.possible_agents, bots))}
    digests = {a: hashlib.sha256() for a in env.possible_agents}
    actions = []
    for agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        legal = sorted(rules.action_name(int(i)) for i in mask.nonzero()[0])
        digests[agent].update(obs["observation"].tobytes())
        digests[agent].update("\n".join(legal).encode())
        action = agents[agent].act(obs["observation"], mask)
        actions.append(f"{agent}: {rules.action_name(action)}")
        env.step(action)
    scores = rules.scores(env.unwrapped.game_state)
    return {
        "players": num_players, "bots": list(bots), "seed": seed, "actions": actions,
        "seat_digests": [digests[a].hexdigest() for a in env.possible_agents], "scores": scores,
    }


def record() -> list[dict]:
    return [play(n, bots, seed) for n, bots, seed in CASES]


if __name__ == "__main__":
    games = record()
    GOLDEN_FILE.write_text(json.dumps(games, indent=0) + "\n")
    print(f"wrote {len(games)} games, {sum(len(g['actions']) for g in games)} decisions, to {GOLDEN_FILE}")
