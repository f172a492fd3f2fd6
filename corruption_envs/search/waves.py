"""Search iterations in waves on a batched engine: W determinizations in W engine rows, stepped together.

A wave draws W determinizations of the searching seat's information set into the rows of a compiled
engine (`vector`, `EngineRows.deal`): where the engine draws them itself (`load_resampled`: the true
state copied into every row and each row's unseen part redrawn in one compiled pass, the same draw as
`resample_hidden`'s from the same seed; every game's engine, Construction's while no secret gift
amount is to be redrawn), else each drawn by the rules' `resample_hidden` (the one-game path's draw)
and loaded into its row. The tree descent then moves every row one decision per engine step: each
row picks its move in its own determinization (the search's `_select`, reading the row's action mask
and acting seat) and the rows that have left the tree, or whose game ended, wait (`vector.WAIT`).
Each descent counts a visit on every node it passes at once (a virtual loss: the node's mean falls
until the playout's points are added), so the W descents of a wave spread over the tree as W
sequential ones would. Playouts then finish every row's game: random ones in one compiled call
(the engine's `play_random`, each row played to its end with moves drawn in the kernel), heuristic
ones stepping the rows together, each step's moves from the bot's `act_batch`. The engine reports
ranks where a game ends (and deals a new game in that row, which then waits), from which the rank
points of every seat are backed up.

Needs numba (the engines); `engine_available(game)` says whether a game can be searched this way.
"""
from __future__ import annotations

import importlib.util
from typing import Any, Callable

import numpy as np

from ..core import GameState, Rules
from ..core.game import Game
from ..named_bots import named_bot

DEFAULT_WAVE = 64  # rows stepped together at most
MIN_WAVES = 8  # waves a move at least: each wave's descents see the statistics of the waves before


def engine_available(game: Game) -> bool:
    """Whether `game` has a compiled batched engine here (one declared, numba installed)."""
    return game.engine is not None and importlib.util.find_spec("numba") is not None


class EngineRows:
    """A compiled engine of `width` rows playing `game` at the player count and options of `rules`, made
    once and reused for every wave and move."""

    def __init__(self, game: Game, rules: Rules, width: int, seed: int) -> None:
        options = {k: v for k, v in rules.config.items() if k not in ("num_players", "illegal_action")}
        self.engine = game.engine_class()(width, num_players=rules.num_players, seed=seed, **options)
        self.engine.reset()
        self.width = width
        self.num_players = rules.num_players
        # whether the engine draws determinizations in its rows itself
        self.resamples = hasattr(self.engine, "load_resampled")
        self._call_every_kernel(rules)

    def _call_every_kernel(self, rules: Rules) -> None:
        """Call each kernel a wave calls once, on a new game: numba loads a kernel from its cache on
        its first call in a process (~0.1 s for them all), a cost for the making of the rows rather
        than a timed move's. The rows' games are replaced before any search reads them."""
        from ..vector import WAIT

        state = rules.new_game(np.random.default_rng(0))
        self.engine.load(0, state)
        if self.resamples and self.engine.can_resample(state, 0):
            self.engine.load_resampled(state, 0, np.zeros(1, np.int64))
        self.engine.step(np.full(self.width, WAIT, np.int64))
        if hasattr(self.engine, "play_random"):
            self.engine.play_random(np.arange(self.width) == 0, 0)

    def load(self, states: list[GameState]) -> None:
        """Rows 0.. play on from `states`, each with the future chance its state carries."""
        for row, state in enumerate(states):
            self.engine.load(row, state)

    def deal(self, state: GameState, player: int, size: int, rng: np.random.Generator,
             determinize: Callable[[GameState, int, np.random.Generator], GameState]) -> None:
        """Rows 0..size-1 play on from determinizations of `state` by `player`, one seed from `rng`
        each: drawn by the engine where it can (`load_resampled`, the draw `determinize` makes from the
        same seed) for the states it can (`can_resample`), else by `determinize(state, player, rng)`
        and loaded."""
        if self.resamples and self.engine.can_resample(state, player):
            self.engine.load_resampled(state, player, rng.integers(2**63, size=size))
        else:
            self.load([determinize(state, player, rng) for _ in range(size)])

    def points(self, row: int) -> list[float]:
        """Rank points per seat of the game that ended in `row` on the last step."""
        n = self.num_players
        return [(n - r) / (n - 1) for r in self.engine.batch.ranks[row, :n].tolist()]


class WavePlayout:
    """Plays rows of an `EngineRows` to the ends of their games, every row with one rollout policy."""

    def __init__(self, game: Game, env: Any, policy: str, rng: np.random.Generator) -> None:
        self.policy = policy
        self.rng = rng
        self.bot = named_bot("heuristic", game, env, 0) if policy == "heuristic" else None

    def reseed(self, rng: np.random.Generator) -> None:
        self.rng = rng
        if self.bot is not None:
            self.bot.use_rng(rng)

    def run(self, rows: EngineRows, playing: np.ndarray, points: list[Any]) -> None:
        """Step until no row in `playing` (bool, one per engine row) has a game on; on the step a row's
        game ends, `points[row]` gets its rank points and the row waits from then on."""
        from ..vector import WAIT
        from ..vector.sampling import random_legal

        engine, batch = rows.engine, rows.engine.batch
        if self.bot is None and hasattr(engine, "play_random"):  # every row to its end in one call
            engine.play_random(playing, int(self.rng.integers(2**63)))
            for row in np.flatnonzero(playing).tolist():
                points[row] = rows.points(row)
            return
        playing = playing.copy()
        actions = np.empty(rows.width, np.int64)
        while playing.any():
            if self.bot is None:
                random_legal(batch.action_mask, self.rng, out=actions)
            else:
                live = np.flatnonzero(playing)
                actions[live] = self.bot.act_batch(batch.observation[live], batch.action_mask[live])
            actions[~playing] = WAIT
            batch = engine.step(actions)
            for row in np.flatnonzero(batch.terminated & playing).tolist():
                points[row] = rows.points(row)
                playing[row] = False


def play_firsts(rows: EngineRows, playout: WavePlayout, firsts: np.ndarray) -> list[list[float]]:
    """Rank points per seat of each row i's game (a determinization, loaded or dealt) played on from
    the move `firsts[i]` to its end by the playout."""
    from ..vector import WAIT

    w = len(firsts)
    actions = np.full(rows.width, WAIT, np.int64)
    actions[:w] = firsts
    batch = rows.engine.step(actions)
    points: list[Any] = [None] * rows.width
    for row in np.flatnonzero(batch.terminated[:w]).tolist():
        points[row] = rows.points(row)
    playing = np.zeros(rows.width, bool)
    playing[:w] = [p is None for p in points[:w]]
    playout.run(rows, playing, points)
    return points[:w]


def run_wave(
    rows: EngineRows,
    playout: WavePlayout,
    roots: list[Any],
    select: Callable[[Any, int, int], int],
    new_node: Callable[[int], Any],
    prepare: Callable[[list[Any], list[int]], None] | None = None,
) -> None:
    """One iteration per root: row i's game (a determinization, loaded or dealt) descends from
    `roots[i]` (rows may share a root) by `select(node, row, player) -> action`, adding one new node
    (`new_node(player)`); then a playout to the game's end, and its rank points backed up.
    `prepare(nodes, rows)`, before each step's selections, sees every row's node at once (a guided
    search evaluates its priors there in one call)."""
    from ..vector import WAIT

    engine, w = rows.engine, len(roots)
    batch = engine.batch
    nodes, paths = list(roots), [[] for _ in range(w)]
    points: list[Any] = [None] * rows.width
    in_tree = list(range(w))
    actions = np.full(rows.width, WAIT, np.int64)
    while in_tree:
        actions[:] = WAIT
        staying = []
        if prepare is not None:
            prepare([nodes[row] for row in in_tree], in_tree)
        for row in in_tree:
            node, player = nodes[row], int(batch.current_player[row])
            action = select(node, row, player)
            child = node.children.get(action)
            if child is None:  # a new node: one an iteration, then the playout
                node.children[action] = child = new_node(player)
            else:
                staying.append(row)
            child.visits += 1  # counted now (a virtual loss until the points come)
            paths[row].append(child)
            nodes[row] = child
            actions[row] = action
        batch = engine.step(actions)
        for row in np.flatnonzero(batch.terminated[:w]).tolist():
            points[row] = rows.points(row)
        in_tree = [row for row in staying if points[row] is None]
    playing = np.zeros(rows.width, bool)
    playing[:w] = [p is None for p in points[:w]]
    playout.run(rows, playing, points)
    for row in range(w):
        got = points[row]
        for node in paths[row]:
            node.total += got[node.player]
