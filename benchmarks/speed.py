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

from benchmarks.results import add_record_option, command_line, measured, write
from corruption_envs.core.threads import one_blas_thread

TARGET = ("corruption", 2.0)  # corruption env() should run >= 2x texas_holdem_v4 env()
REFERENCE = "texas_holdem_v4 env()"
BATCHES = (1, 64, 256, 1024)  # batch sizes of the batched engines' rows (and pgx's)
# the batched engine's fastest row (whichever batch size) should run this many times its game's env()
VECTOR_TARGETS = {"corruption": 50.0, "corruptia": 25.0, "construction": 25.0}


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


def time_vector(game: str, batch: int, seconds: float, max_games: int | None,
                seed: int) -> tuple[int, int, float]:
    """(decisions, games, elapsed) of random play on the batched engine: a uniform legal action per
    game from its mask, all B games stepped together (games counted as they end)."""
    from corruption_envs import vector
    from corruption_envs.vector.sampling import random_legal

    engine = vector.make(game, num_envs=batch, seed=seed)
    rng = np.random.default_rng(seed)
    actions = np.zeros(batch, np.int64)
    b = engine.reset()
    decisions = games = 0
    start = time.process_time()
    deadline = start + seconds
    while (max_games is None or games < max_games) and time.process_time() < deadline:
        for _ in range(16):  # read the clock every 16 steps: a step of B=1 is a microsecond or two
            b = engine.step(random_legal(b.action_mask, rng, actions))
            games += int(b.terminated.sum())
        decisions += 16 * batch
    return decisions, games, time.process_time() - start


def time_pgx(env_id: str, batch: int, seconds: float, max_games: int | None,
             seed: int) -> tuple[int, int, float]:
    """(decisions, games, elapsed) of pgx's jit-compiled, vmapped random play on the CPU (pgx's own
    benchmark loop: a uniform legal action per game, finished games reset)."""
    import jax
    import jax.numpy as jnp
    import pgx

    from pgx.experimental import auto_reset

    env = pgx.make(env_id)
    init = jax.jit(jax.vmap(env.init))
    step = jax.vmap(auto_reset(env.step, env.init))

    @jax.jit
    def act(key, state):
        key, pick, chance = jax.random.split(key, 3)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        state = step(state, jax.random.categorical(pick, logits), jax.random.split(chance, batch))
        return key, state, state.terminated.sum()

    key = jax.random.PRNGKey(seed)
    state = init(jax.random.split(key, batch))
    key, state, _ = act(key, state)  # compile before the clock starts
    jax.block_until_ready(state)
    decisions = games = 0
    start = time.process_time()
    deadline = start + seconds
    while (max_games is None or games < max_games) and time.process_time() < deadline:
        key, state, done = act(key, state)
        games += int(done)
        decisions += batch
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
        from corruption_envs import vector

        for game in vector.list_games():
            for batch in BATCHES:
                out.append((f"{game} vector B={batch}", _vec(game, batch), "batched engine (numba)"))
    except ImportError as e:
        out.append(("batched engines", None, f"unavailable ({e})"))
    try:
        import pgx  # noqa: F401

        for batch in BATCHES:
            out.append((f"pgx leduc_holdem B={batch}", _pgx("leduc_holdem", batch), "pgx on CPU (JAX)"))
    except ImportError:
        out.append(("pgx", None, "unavailable (pip install pgx)"))
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


def _vec(game: str, batch: int) -> Callable[[float, int | None, int], tuple[int, int, float]]:
    return lambda s, g, seed: time_vector(game, batch, s, g, seed)


def _pgx(env_id: str, batch: int) -> Callable[[float, int | None, int], tuple[int, int, float]]:
    return lambda s, g, seed: time_pgx(env_id, batch, s, g, seed)


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


COLUMNS = (("env", ""), ("decisions/CPU-s", ",.0f"), (f"x {REFERENCE}", ".2f"), ("games", ","),
           ("decisions/game", ".1f"), ("note", ""))


def table_rows(results: Sequence[Entry]) -> list[list[Any]]:
    """One row per entry under COLUMNS; None where an entry did not run or the anchor is missing."""
    ref = next((e.rate for e in results if e.name == REFERENCE and e.rate > 0), None)
    rows: list[list[Any]] = []
    for e in results:
        if e.seconds == 0:
            rows.append([e.name, None, None, None, None, e.note])
            continue
        ratio = round(e.rate / ref, 2) if ref else None
        rows.append([e.name, round(e.rate), ratio, e.games, round(e.decisions / max(e.games, 1), 1), e.note])
    return rows


def verdicts(results: Sequence[Entry]) -> list[str]:
    """The targets met or missed: our env() against the anchor, each batched engine against its env()."""
    ref = next((e.rate for e in results if e.name == REFERENCE and e.rate > 0), None)
    lines = []
    game, factor = TARGET
    ours = next((e.rate for e in results if e.name == f"{game} env()"), None)
    if ours and ref:
        verdict = "meets" if ours >= factor * ref else "MISSES"
        lines.append(f"{game} env() runs {ours / ref:.2f}x {REFERENCE}: {verdict} the >= {factor:g}x target")
    for game, factor in VECTOR_TARGETS.items():
        single = next((e.rate for e in results if e.name == f"{game} env()" and e.rate > 0), None)
        rows = [e for e in results if e.name.startswith(f"{game} vector") and e.rate > 0]
        if single and rows:
            top = max(rows, key=lambda e: e.rate)
            verdict = "meets" if top.rate >= factor * single else "MISSES"
            lines.append(f"{top.name} (its fastest batched row) runs {top.rate / single:.1f}x {game} env(): "
                         f"{verdict} the >= {factor:g}x target")
    return lines


def render(results: Sequence[Entry]) -> str:
    head = [name for name, _ in COLUMNS]
    rows = [["-" if v is None else format(v, spec) for v, (_, spec) in zip(row, COLUMNS)]
            for row in table_rows(results)]
    widths = [max(len(x) for x in col) for col in zip(head, *rows)]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |" for r in [head, *rows]]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    verdict = verdicts(results)
    return "\n".join(lines + (["", *verdict] if verdict else []))


def main(argv: Sequence[str] | None = None) -> int:
    one_blas_thread()
    p = argparse.ArgumentParser(prog="python -m benchmarks.speed", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=float, default=3.0, help="CPU-seconds per entry, over all rounds")
    p.add_argument("--rounds", type=int, default=3, help="interleaved rounds per entry (best one counts)")
    p.add_argument("--games", type=int, default=None, help="stop an entry after this many games")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--only", nargs="+", default=None,
                   help=f"substrings of entry names to run ({REFERENCE} always runs)")
    add_record_option(p)
    args = p.parse_args(argv)
    results = run(args.seconds, args.games, args.seed, args.only, args.rounds)
    print(render(results))
    if args.record is not None:
        record = measured("speed", "Random play against the anchors", command_line("benchmarks.speed", argv),
                          COLUMNS, table_rows(results), seed=args.seed, note="\n".join(verdicts(results)),
                          games=sorted(VECTOR_TARGETS))
        write(record, args.record, "speed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
