"""Search on the batched engine beside search one game at a time: simulations per CPU-second, and
strength at an equal number of simulations.

    python -m benchmarks.search_speed                        # ismcts:700, every game
    python -m benchmarks.search_speed --spec ismcts:200 --decisions 2 --games corruption
    python -m benchmarks.search_speed --spec 'ismcts:700@policies/{game}/champion.npz'   # guided
    python -m benchmarks.search_speed --strength --deals 48 --spec ismcts:100
    python -m benchmarks.search_speed --breakdown             # where the engine path's time goes

Speed: the same bot spec and seed on both paths (`engine=False`, `engine=True`), timed on the same
positions, the first `--decisions` decisions of player_0 (with a choice to make) in a 4-player game
seeded 0 among heuristic bots, by time.process_time; the engine is compiled and made before timing.
`{game}` in a spec is replaced by each game's name (a guiding policy file per game).

Strength: on each deal (a 4-player game seeded by its number, the searcher at seat deal % 4, the
other seats heuristic bots), the engine search and the one-game search each play the searcher's
seat; the difference of their rank points per deal goes into a paired t-test (benchmarks/stats.py).
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from typing import Any, Sequence

import numpy as np

import corruption_envs
from benchmarks.results import Interval, add_record_option, command_line, measured, record_name, write
from benchmarks.stats import paired_t_test
from corruption_envs.core.threads import one_blas_thread
from corruption_envs.search import search_agent
from corruption_envs.search.base import rank_points

GAMES = ("corruption", "corruptia", "construction")
PLAYERS = 4
# the engine path's simulations per CPU-second, as a multiple of the one-game path's (plain, guided)
SPEED_TARGETS = (20.0, 10.0)


def positions(game: str, decisions: int, seed: int = 0) -> list[Any]:
    """Envs at player_0's first `decisions` decisions that have a choice, in a game among heuristics."""
    game = corruption_envs.get_game(game)
    env = game.env(num_players=PLAYERS)
    env.reset(seed=seed)
    bots = {a: game.bot("heuristic", env, seed * PLAYERS + i) for i, a in enumerate(env.agents)}
    out = []
    while len(out) < decisions and not all(env.terminations.values()):
        agent = env.agent_selection
        seen = env.observe(agent)
        if agent == env.agents[0] and np.count_nonzero(seen["action_mask"]) > 1:
            out.append(env.clone())
        env.step(bots[agent].act(seen["observation"], seen["action_mask"]))
    return out


def simulations_per_second(spec: str, envs: Sequence[Any], engine: bool) -> float:
    """Simulations per CPU-second of the bot `spec` deciding at each env (seeded alike)."""
    sims = cpu = 0.0
    for k, env in enumerate(envs):
        bot = search_agent(spec, env, seed=k, engine=engine)
        seen = env.observe(env.agent_selection)
        if engine:  # the engine made (and compiled, on a first run) outside the timing
            bot.ready_engine()
        start = time.process_time()
        bot.act(seen["observation"], seen["action_mask"])
        cpu += time.process_time() - start
        sims += bot.last_iterations
    return sims / cpu


SPEED_COLUMNS = (("game", ""), ("one game, sims/CPU-s", ",.0f"), ("engine, sims/CPU-s", ",.0f"),
                 ("ratio", ".1f"), ("target ratio", ".0f"))


def speed(spec: str, games: Sequence[str], decisions: int) -> list[list[Any]]:
    """Rows under SPEED_COLUMNS, printed as they come."""
    print(f"simulations per CPU-second, {spec}, first {decisions} decisions of player_0 "
          f"({PLAYERS} players, heuristic opponents, game seed 0)")
    print(f"{'game':<14}{'one game':>12}{'engine':>12}{'ratio':>9}")
    rows = []
    for game in games:
        envs = positions(game, decisions)
        one, eng = (simulations_per_second(spec.format(game=game), envs, engine) for engine in (False, True))
        target = SPEED_TARGETS["@" in spec]
        verdict = "meets" if eng / one >= target else "below"
        print(f"{game:<14}{one:>12.0f}{eng:>12.0f}{eng / one:>8.1f}x  ({verdict} the {target:.0f}x target)")
        rows.append([game, round(one), round(eng), round(eng / one, 1), target])
    return rows


# where the engine path's time goes: (label, the function's file suffix, its name)
PARTS = (("resample_hidden", "hidden.py", "resample_hidden"), ("engine load", "", "load"),
         ("engine resample", "", "load_resampled"),
         ("engine step", "engine.py", "step"), ("playouts", "waves.py", "run"))


def breakdown(spec: str, games: Sequence[str], decisions: int) -> None:
    """The share of the engine path's time in each of PARTS (cProfile's cumulative time)."""
    print(f"share of the engine path's time, {spec} (cProfile, cumulative; the parts overlap)")
    for game in games:
        envs = positions(game, decisions)
        profile = cProfile.Profile(time.process_time)  # CPU time, as the total
        total = 0.0
        for k, env in enumerate(envs):
            bot = search_agent(spec.format(game=game), env, seed=k, engine=True)
            bot.ready_engine()
            seen = env.observe(env.agent_selection)
            start = time.process_time()
            profile.runcall(bot.act, seen["observation"], seen["action_mask"])
            total += time.process_time() - start
        stats = pstats.Stats(profile).stats  # (file, line, name) -> (calls, _, tottime, cumtime, _)
        shares = []
        for label, suffix, name in PARTS:
            cum = sum(v[3] for (f, _, n), v in stats.items() if n == name and f.endswith(suffix)
                      and "corruption_envs" in f)
            shares.append(f"{label} {cum / total:.0%}")
        print(f"{game:<14}" + ", ".join(shares))


def searcher_points(game: str, spec: str, deal: int, engine: bool) -> float:
    """Rank points of the searcher (seat deal % 4) in the game seeded `deal` among heuristics."""
    env = corruption_envs.env(game, num_players=PLAYERS)
    env.reset(seed=deal)
    seat = deal % PLAYERS
    searcher = search_agent(spec, env, seed=deal, engine=engine)
    bots = {a: corruption_envs.get_game(game).bot("heuristic", env, deal * PLAYERS + i)
            for i, a in enumerate(env.agents)}
    bots[env.agents[seat]] = searcher
    while not all(env.terminations.values()):
        agent = env.agent_selection
        seen = env.observe(agent)
        env.step(bots[agent].act(seen["observation"], seen["action_mask"]))
    u = env.unwrapped
    return rank_points(u.rules, u.game_state)[seat]


STRENGTH_COLUMNS = (("game", ""), ("one game, rank points", ".3f"), ("engine, rank points", ".3f"),
                    ("engine minus one game [95% CI]", "+.3f"), ("p(>0)", ".2g"), ("p(<0)", ".2g"))


def strength(spec: str, games: Sequence[str], deals: int) -> list[list[Any]]:
    """Rows under STRENGTH_COLUMNS, printed as they come."""
    print(f"engine minus one-game rank points of the searcher ({spec}), paired over {deals} deals "
          f"({PLAYERS} players, heuristic opponents)")
    rows = []
    for game in games:
        start = time.perf_counter()
        diffs, ones, engs = [], [], []
        for deal in range(deals):
            one = searcher_points(game, spec.format(game=game), deal, engine=False)
            eng = searcher_points(game, spec.format(game=game), deal, engine=True)
            ones.append(one)
            engs.append(eng)
            diffs.append(eng - one)
        test = paired_t_test(diffs)
        print(f"{game:<14} one game {np.mean(ones):.3f}, engine {np.mean(engs):.3f}: {test.describe()} "
              f"({time.perf_counter() - start:.0f} s)")
        rows.append([game, float(np.mean(ones)), float(np.mean(engs)),
                     Interval(value=test.mean, low=test.low, high=test.high), test.p_greater, test.p_less])
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spec", default="ismcts:700", help="the search bot's spec (default ismcts:700)")
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=GAMES)
    parser.add_argument("--decisions", type=int, default=2, help="positions timed per game (default 2)")
    parser.add_argument("--strength", action="store_true", help="the paired strength test instead of speed")
    parser.add_argument("--breakdown", action="store_true", help="where the engine path's time goes")
    parser.add_argument("--deals", type=int, default=48, help="deals per game of the strength test")
    add_record_option(parser)
    args = parser.parse_args(argv)
    one_blas_thread()
    if args.breakdown:
        breakdown(args.spec, args.games, args.decisions)
        return
    rows = (strength(args.spec, args.games, args.deals) if args.strength
            else speed(args.spec, args.games, args.decisions))
    if args.record is not None:
        kind, columns = ("strength", STRENGTH_COLUMNS) if args.strength else ("speed", SPEED_COLUMNS)
        title = (f"Engine search against one-game search at equal simulations ({args.spec}, {args.deals} deals)"
                 if args.strength else f"Search simulations per CPU-second, engine and one game ({args.spec})")
        record = measured("search", title, command_line("benchmarks.search_speed", argv), columns, rows,
                          games=args.games, players=[PLAYERS], seed=0)
        write(record, args.record, record_name("search", kind, args.spec, *args.games))


if __name__ == "__main__":
    main()
