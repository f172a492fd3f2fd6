"""A batched engine against the AEC rules of its game, decision by decision (tests/vector/test_<game>.py).

    python -m benchmarks.differential --game corruption --games 100000 --players 3 4 5 6 7 --play random

Every row of the compiled engine has an AEC twin: a state of the game's rules holding the same game and
the same chance (`TWINS`, the one thing that differs by game). Both sides play the same actions, chosen
from the AEC side (uniformly random legal ones, or the game's HeuristicAgent); before every action the
engine's player count, seat on turn, mask and observation (float32, bit for bit) must be the AEC's, and
after it the terminated flag, and at a game's end its rewards, scores and ranks. Rows wait
(`vector.WAIT`) at random decisions (`--wait`), as the training rollout's do, and must stay as they
were. The first difference raises AssertionError naming the row, the decision, the player count and
what differs: the mask, the terminated flag, the rewards, scores or ranks, or the observation feature
by its layout name. With no --game every game of `corruption_envs.vector.list_games()` is compared at its whole
player range.
"""
from __future__ import annotations

import argparse
import sys
import time
from typing import Any, Callable, NamedTuple, Sequence

import numpy as np

from corruption_envs.core.rewards import ranks, terminal_rewards
from corruption_envs.core.rules import GameState, Rules
from corruption_envs.registry import get_game, make_env
from corruption_envs.vector import WAIT, VectorEngine, engine_class, list_games

PLAYS = ("random", "heuristic")
Chooser = Callable[[int, np.ndarray, np.ndarray], int]  # (num_players, observation, mask) -> action


# --- the AEC twin of an engine row: how each game's engine draws its chance ---------------------------
class Twin(NamedTuple):
    """How a game's AEC side gets an engine row's game and chance."""

    dealt: Callable[[VectorEngine, int], GameState]  # the AEC game of the row's current deal
    loaded: Callable[[VectorEngine, int, GameState], GameState]  # load a position into the row; its twin


def _numpy_deal(engine: VectorEngine, row: int) -> GameState:
    """The game the AEC env deals from the row's seed, its chance all from that numpy Generator."""
    rules = engine.rules[int(engine._batch.num_players[row])]
    return rules.new_game(np.random.default_rng(int(engine.game_seeds[row])))


def _load_copy(engine: VectorEngine, row: int, state: GameState) -> GameState:
    """The engine takes the position (and the state of its Generator, where it draws more); the twin is
    a copy that draws on from the same Generator state."""
    engine.load(row, state)
    return engine.rules[state.n].copy_state(state)


# every engine replays numpy's Generator in its kernels, the deal and the chance of play alike
TWINS: dict[str, Twin] = {
    "corruption": Twin(_numpy_deal, _load_copy),
    "corruptia": Twin(_numpy_deal, _load_copy),
    "construction": Twin(_numpy_deal, _load_copy),
}


# --- the actions both sides play --------------------------------------------------------------------
def chooser(game: str, play: str, counts: Sequence[int], seed: int, **config: Any) -> Chooser:
    """'random': a uniform legal action; 'heuristic': the game's heuristic bot of the player count."""
    if play == "random":
        rng = np.random.default_rng(seed)

        def random_action(n: int, obs: np.ndarray, mask: np.ndarray) -> int:
            legal = np.flatnonzero(mask)
            return int(legal[rng.integers(legal.size)])
        return random_action
    if play == "heuristic":
        agent_class = get_game(game).bots["heuristic"]
        agents = {n: agent_class(make_env(game, num_players=n, **config), seed=seed + n) for n in counts}
        return lambda n, obs, mask: int(agents[n].act(obs, mask))
    raise ValueError(f"play={play!r}: choose one of {PLAYS}")


# --- the checks --------------------------------------------------------------------------------------
def where(row: int, decision: int, n: int) -> str:
    return f"row {row}, decision {decision}, {n} players"


def feature_name(engine: VectorEngine, k: int) -> str:
    """Observation entry k by its layout piece and index within the piece, e.g. players[2, 1]."""
    layout = engine.observation_layout
    for name, piece in layout.items():
        if piece.start <= k < piece.stop:
            index = np.unravel_index(k - piece.start, layout.shapes[name])
            return f"{name}[{', '.join(str(int(j)) for j in index)}]"
    raise AssertionError(f"observation entry {k} is in no layout piece")


def check_decision(engine: VectorEngine, row: int, rules: Rules, twin: GameState,
                   decision: int) -> tuple[np.ndarray, np.ndarray]:
    """Engine row `row` shows the twin's decision exactly; returns the AEC (observation, mask)."""
    b, n = engine._batch, twin.n
    at = where(row, decision, n)
    player = rules.current_player(twin)
    assert b.num_players[row] == n, f"{at}: engine has {b.num_players[row]} players"
    assert b.current_player[row] == player, \
        f"{at}: engine's seat on turn {b.current_player[row]}, AEC's {player}"
    mask = rules.legal_mask(twin)
    if not np.array_equal(b.action_mask[row], mask):
        extra = [rules.action_name(a, twin) for a in np.flatnonzero(b.action_mask[row] > mask)]
        missing = [rules.action_name(a, twin) for a in np.flatnonzero(b.action_mask[row] < mask)]
        raise AssertionError(f"{at}: mask differs: engine adds {extra}, lacks {missing}")
    obs = rules.observe(twin, player)
    got = b.observation[row]
    if not np.array_equal(got, obs):
        k = int(np.flatnonzero(got != obs)[0])
        raise AssertionError(f"{at}: observation differs at {feature_name(engine, k)} (entry {k}): "
                             f"engine {got[k]!r}, AEC {obs[k]!r}")
    return obs, mask


def check_step(engine: VectorEngine, row: int, rules: Rules, twin: GameState, decision: int) -> bool:
    """After `decision` decisions of the twin, engine row `row` ended exactly when the twin's game did,
    with its rewards, scores and ranks; returns whether it ended."""
    b, n = engine._batch, twin.n
    over = rules.is_over(twin)
    at = where(row, decision, n)
    assert b.terminated[row] == over, f"{at}: engine terminated={b.terminated[row]}, AEC over={over}"
    if not over:
        assert not b.rewards[row].any(), f"{at}: rewards {b.rewards[row].tolist()} in a game that goes on"
        return False
    at = f"row {row}, the end after decision {decision}, {n} players"
    assert b.ended_players[row] == n, f"{at}: engine's ended game had {b.ended_players[row]} players"
    keys, scores = rules.final_keys(twin), rules.scores(twin)
    want = {
        "rewards": np.asarray(terminal_rewards(rules.config["reward"], keys, scores), np.float32),
        "scores": np.asarray(scores, np.int64),
        "ranks": np.asarray(ranks(keys), np.float64),
    }
    for name, value in want.items():
        got = getattr(b, name)[row]
        assert np.array_equal(got[:n], value) and not got[n:].any(), f"{at}: {name} {got} != AEC {value}"
    return True


# --- the drivers -------------------------------------------------------------------------------------
def compare_games(game: str, num_games: int, num_players: int | Sequence[int], seed: int,
                  play: str = "random", num_envs: int = 64, wait: float = 0.0, **config: Any) -> int:
    """Play `num_games` games both ways (`num_players`: one count, or counts a batch mixes), every row
    on until it has ended a game, each row waiting (`vector.WAIT`) at a decision with chance `wait`;
    returns the decisions compared."""
    engine = engine_class(game)(min(num_envs, num_games), num_players=num_players, seed=seed, **config)
    engine.reset()
    deal = TWINS[game].dealt
    twins = [deal(engine, row) for row in range(engine.num_envs)]
    choose = chooser(game, play, engine.player_counts, seed, **config)
    return _play(engine, twins, choose, num_games, lambda row: deal(engine, row), _waits(wait, seed))


def compare_positions(game: str, states: Sequence[GameState], seed: int, play: str = "random",
                      wait: float = 0.0, **config: Any) -> int:
    """Load each AEC state (built with `config`) into a row of one engine and play every one of those
    games on to its end both ways (rows waiting with chance `wait`); returns the decisions compared."""
    counts = sorted({s.n for s in states})
    engine = engine_class(game)(len(states), num_players=counts, seed=seed, **config)
    engine.reset()
    load = TWINS[game].loaded
    twins = [load(engine, row, s) for row, s in enumerate(states)]
    choose = chooser(game, play, counts, seed, **config)
    return _play(engine, twins, choose, len(states), lambda row: None, _waits(wait, seed))


def _waits(chance: float, seed: int) -> Callable[[], bool]:
    """Whether a row waits at this decision, as the training rollout's rows do when their seat's
    policy is elsewhere: with probability `chance`, seeded."""
    if not 0.0 <= chance < 1.0:
        raise ValueError(f"wait={chance}: a chance in [0, 1)")
    rng = np.random.default_rng(seed + 1)
    return lambda: chance > 0.0 and rng.random() < chance


def _play(engine: VectorEngine, twins: list[GameState | None], choose: Chooser, num_games: int,
          next_twin: Callable[[int], GameState | None], waits: Callable[[], bool]) -> int:
    """Step the engine and the twins with the same actions until `num_games` games have ended and every
    row has ended one; a row whose next twin is None waits, and any row when `waits()` says so (its
    twin then does not move, and the engine row must show the same decision again). Returns the
    decisions compared."""
    rows = range(engine.num_envs)
    decision = np.zeros(engine.num_envs, np.int64)  # decisions so far in each row's game
    ended_one = np.zeros(engine.num_envs, bool)
    actions = np.full(engine.num_envs, WAIT, np.int64)
    finished = compared = 0
    while finished < num_games or not ended_one.all():
        for row in rows:
            twin = twins[row]
            if twin is None:
                actions[row] = WAIT
                continue
            rules = engine.rules[twin.n]
            obs, mask = check_decision(engine, row, rules, twin, int(decision[row]))
            if waits():
                actions[row] = WAIT
                continue
            actions[row] = choose(twin.n, obs, mask)
            rules.apply(twin, int(actions[row]))
            compared += 1
        engine.step(actions)
        for row in rows:
            twin = twins[row]
            if twin is None:
                continue
            if actions[row] == WAIT:
                assert not engine._batch.terminated[row] and not engine._batch.rewards[row].any(), \
                    f"{where(row, int(decision[row]), twin.n)}: a waiting row ended or was rewarded"
                continue
            decision[row] += 1
            if check_step(engine, row, engine.rules[twin.n], twin, int(decision[row])):
                finished += 1
                ended_one[row] = True
                decision[row] = 0
                twins[row] = next_twin(row)
    return compared


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=list_games(), nargs="+", default=list_games())
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, nargs="+", help="default: each game's whole player range")
    parser.add_argument("--play", choices=PLAYS, default="random")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--wait", type=float, default=0.2, help="chance a row waits at a decision")
    args = parser.parse_args(argv)
    for game in args.game:
        rules = engine_class(game).rules_class
        counts = args.players or list(range(rules.min_players, rules.max_players + 1))
        start = time.process_time()
        try:
            decisions = compare_games(game, args.games, counts, args.seed, args.play, args.envs, args.wait)
        except AssertionError as mismatch:
            sys.exit(f"{game}: {mismatch}")
        print(f"{game}: {args.games} games, {decisions} decisions: engine and AEC agree "
              f"({time.process_time() - start:.1f} s CPU)")


if __name__ == "__main__":
    main()
