"""Decisions per second of seeded random play, our games beside PettingZoo and OpenSpiel anchors.

    python -m benchmarks.speed                      # every registered game + every anchor installed
    python -m benchmarks.speed --seconds 5 --only corruption texas_holdem_v4

One decision = one env.step(action) with a non-None action; rates are per CPU-second of this process
(time.process_time), timed in interleaved rounds with the best round kept, so that other processes on
a shared machine disturb the table as little as possible. Each PettingZoo entry (our env() and
raw_env(), texas_holdem_v4 and tictactoe_v3 env() and raw_env()) plays full games from seeded resets,
calling env.last() before every step (so the observation is built every step, as an agent needs it)
and picking uniformly among the mask's legal actions with one numpy Generator. OpenSpiel entries
(leduc_poker with 5 players, python_kuhn_poker; only if open_spiel is importable) do the equivalent:
observation_tensor() of the player to move and legal_actions() before every decision, chance
outcomes sampled by their probabilities. Ratios are to texas_holdem_v4 env(). The anchors need
`pip install "pettingzoo[classic]"` (rlcard, open_spiel); missing ones are reported, not fatal.
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

TARGET = ("corruption", 2.0)  # corruption env() should run >= 2x texas_holdem_v4 env()
REFERENCE = "texas_holdem_v4 env()"


@dataclass
class Entry:
    name: str
    decisions: int
    games: int
    seconds: float
    note: str = ""

    @property
    def rate(self) -> float:
        return self.decisions / self.seconds if self.seconds > 0 else 0.0


def time_pettingzoo(
    make: Callable[[], Any], seconds: float, max_games: int | None, seed: int
) -> tuple[int, int, float]:
    """(decisions, games, elapsed) of random play through env.last()/env.step()."""
    env = make()
    rng = np.random.default_rng(seed)
    decisions = games = 0
    start = time.process_time()
    deadline = start + seconds
    while (max_games is None or games < max_games) and time.process_time() < deadline:
        env.reset(seed=seed + games)
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(legal.size)]))
            decisions += 1
        games += 1
    return decisions, games, time.process_time() - start


def time_openspiel(game_name: str, params: dict[str, Any], seconds: float, max_games: int | None,
                   seed: int) -> tuple[int, int, float]:
    import pyspiel

    if game_name.startswith("python_"):
        import open_spiel.python.games  # noqa: F401  (registers the python games)
    game = pyspiel.load_game(game_name, params)
    rng = np.random.default_rng(seed)
    decisions = games = 0
    start = time.process_time()
    deadline = start + seconds
    while (max_games is None or games < max_games) and time.process_time() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(outcomes[rng.choice(len(outcomes), p=probs)])
                continue
            state.observation_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            decisions += 1
        games += 1
    return decisions, games, time.process_time() - start


def entries(only: Sequence[str] | None) -> list[tuple[str, Callable[..., tuple[int, int, float]] | None, str]]:
    """(name, timer(seconds, max_games, seed), note) for everything importable; timer None if not."""
    import corruption_envs

    out: list[tuple[str, Any, str]] = []
    for game in corruption_envs.list_games():
        for kind in ("env", "raw_env"):
            make = getattr(corruption_envs, kind)
            out.append((f"{game} {kind}()", _pz(lambda g=game, m=make: m(g)), "default config"))
    try:
        from pettingzoo.classic import texas_holdem_v4, tictactoe_v3

        for mod in (texas_holdem_v4, tictactoe_v3):
            name = mod.__name__.rsplit(".", 1)[-1]
            out.append((f"{name} env()", _pz(mod.env), "pettingzoo, wrapped"))
            out.append((f"{name} raw_env()", _pz(mod.raw_env), "pettingzoo, no wrappers"))
    except Exception as e:  # rlcard missing: say so in the table
        out.append(("texas_holdem_v4 / tictactoe_v3", None, f"unavailable ({type(e).__name__}: {e})"))
    try:
        import pyspiel  # noqa: F401

        out.append(("openspiel leduc_poker(5p)", _os("leduc_poker", {"players": 5}), "C++ core, python loop"))
        out.append(("openspiel python_kuhn_poker", _os("python_kuhn_poker", {}), "pure python, 2p"))
    except ImportError:
        out.append(("openspiel", None, "unavailable (open_spiel not installed)"))
    if only:
        out = [e for e in out if e[0] == REFERENCE or any(o in e[0] for o in only)]  # keep the anchor
    return out


def _pz(make: Callable[[], Any]) -> Callable[[float, int | None, int], tuple[int, int, float]]:
    return lambda s, g, seed: time_pettingzoo(make, s, g, seed)


def _os(name: str, params: dict[str, Any]) -> Callable[[float, int | None, int], tuple[int, int, float]]:
    return lambda s, g, seed: time_openspiel(name, params, s, g, seed)


def run(seconds: float, max_games: int | None, seed: int, only: Sequence[str] | None,
        rounds: int = 3) -> list[Entry]:
    """Every entry timed in `rounds` interleaved rounds of seconds/rounds each; the best round counts,
    so a burst of load from other processes on a shared machine hurts no entry more than another."""
    todo = entries(only)
    best: dict[str, Entry] = {}
    for name, timer, note in todo:
        if timer is None:
            best[name] = Entry(name, 0, 0, 0.0, note)
            continue
        try:
            timer(min(0.3, seconds), 3, seed)  # warm-up: imports, caches
        except Exception as e:  # a game still being written must not hide the other rows
            best[name] = Entry(name, 0, 0, 0.0, f"failed: {type(e).__name__}: {e}"[:100])
    for _ in range(rounds):
        for name, timer, note in todo:
            if name in best and best[name].seconds == 0:
                continue
            e = Entry(name, *timer(seconds / rounds, max_games, seed), note)
            if name not in best or e.rate > best[name].rate:
                best[name] = e
    return [best[name] for name, _, _ in todo]


def render(results: Sequence[Entry]) -> str:
    ref = next((e.rate for e in results if e.name == REFERENCE and e.rate > 0), None)
    head = ["env", "decisions/CPU-s", f"x {REFERENCE}", "games", "decisions/game", "note"]
    rows = []
    for e in results:
        if e.seconds == 0:
            rows.append([e.name, "-", "-", "-", "-", e.note])
            continue
        ratio = f"{e.rate / ref:.2f}" if ref else "-"
        per_game = f"{e.decisions / max(e.games, 1):.1f}"
        rows.append([e.name, f"{e.rate:,.0f}", ratio, str(e.games), per_game, e.note])
    widths = [max(len(x) for x in col) for col in zip(head, *rows)]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |" for r in [head, *rows]]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    game, factor = TARGET
    ours = next((e.rate for e in results if e.name == f"{game} env()"), None)
    if ours and ref:
        verdict = "meets" if ours >= factor * ref else "MISSES"
        lines.append(f"\n{game} env() runs {ours / ref:.2f}x {REFERENCE}: {verdict} the >= {factor:g}x target")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.speed", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=float, default=3.0, help="CPU-seconds per entry, over all rounds")
    p.add_argument("--rounds", type=int, default=3, help="interleaved rounds per entry (best one counts)")
    p.add_argument("--games", type=int, default=None, help="stop an entry after this many games")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--only", nargs="+", default=None,
                   help=f"substrings of entry names to run ({REFERENCE} always runs)")
    args = p.parse_args(argv)
    print(render(run(args.seconds, args.games, args.seed, args.only, args.rounds)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
