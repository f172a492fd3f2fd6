"""Golden games: seeded games of every game and player count, recorded step by step.

A refactor must not change behaviour. Each game is recorded as the index of every action played, one digest
per seat over everything that seat was shown at every decision (its observation vector, its action mask when
it acts and its text view) and the final scores and rewards. A change that keeps the action indices, the
observations, the text and the outcome identical leaves these games identical.

Record (only when the rules or a layout are meant to change): `python -m tests.golden.record`.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import corruption_envs
from corruption_envs.bots import make_agent

GOLDEN_FILE = Path(__file__).with_name("golden_games.json")
PLAYER_COUNTS = {"corruption": range(3, 8), "corruptia": range(3, 6), "construction": range(3, 8)}
# (game, players, seat bots, seed): every count, heuristic and random seats alone and side by side
CASES = [
    (game, n, bots, seed)
    for game, counts in PLAYER_COUNTS.items()
    for n in counts
    for bots, seed in ((("heuristic",) * n, 11), ((("random", "heuristic") * 4)[:n], 12), (("random",) * n, 13))
]


def play(game: str, num_players: int, bots: tuple[str, ...], seed: int) -> dict:
    env = corruption_envs.env(game, num_players=num_players)
    env.reset(seed=seed)
    agents = {a: make_agent(b, env, seed=seed * 10 + i) for i, (a, b) in enumerate(zip(env.possible_agents, bots))}
    digests = {a: hashlib.sha256() for a in env.possible_agents}
    actions, rewards = [], {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            rewards[agent] = float(reward)
            env.step(None)
            continue
        for seat in env.possible_agents:
            digests[seat].update(env.observe(seat)["observation"].tobytes())
            digests[seat].update(env.unwrapped.render_for(seat).encode())
        digests[agent].update(obs["action_mask"].tobytes())
        action = agents[agent].act(obs["observation"], obs["action_mask"])
        actions.append(int(action))
        env.step(action)
    return {
        "game": game, "players": num_players, "bots": list(bots), "seed": seed, "actions": actions,
        "seat_digests": [digests[a].hexdigest() for a in env.possible_agents],
        "scores": [int(x) for x in env.unwrapped.rules.scores(env.unwrapped.game_state)],
        "rewards": [rewards[a] for a in env.possible_agents],
    }


def key(game: dict) -> tuple:
    return game["game"], game["players"], tuple(game["bots"]), game["seed"]


if __name__ == "__main__":
    games = [play(*case) for case in CASES]
    GOLDEN_FILE.write_text(json.dumps(games, separators=(",", ":")) + "\n")
    print(f"wrote {len(games)} games, {sum(len(g['actions']) for g in games)} decisions, to {GOLDEN_FILE}")
