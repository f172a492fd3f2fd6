"""The learner's seat in B games at once: an SB3 `VecEnv` over a batched engine (run.vec_env: batched).

It keeps `SelfPlayEnv`'s episodes (training/opponents/wrapper.py): each game draws its player count from the
configured range, the learner's seat at random and every other seat from the opponent pool (a PFSP
snapshot playing one member of a mixture per seat and game, sampling at its temperature from this
env's generator, or a named bot); the opponents move until the learner is on turn or the game ends; the
learner is paid its terminal reward even when an opponent's move ends the game; a game that ends before
the learner's first move is not played by it. What changes is the cost: every opponent decides once
per step for all the games where it is on turn (`act_batch`), and the engine steps the games together.
The observations a step returns stay as they are through the next step (SB3 reads them then) and are
rewritten by the one after: copy them to keep them longer.
"""
from __future__ import annotations

from typing import Any, Sequence

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env import VecEnv

from corruption_envs import vector
from corruption_envs.bots import make_agent
from corruption_envs.core import Agent, RandomAgent
from corruption_envs.core.agents import rows_by
from corruption_envs.core.rewards import pairwise_points, win_shares
from corruption_envs.core.game import Game
from corruption_envs.policy import MixturePolicy, NumpyPolicy

from .policy_group import PolicyGroup, kind_of
from .pool import OpponentPool

LEARNER = -1  # the actor index of the learner's seat


class BatchedSelfPlayVecEnv(VecEnv):
    """`num_envs` learner games of `game` on one batched engine, opponents from `pool`."""

    def __init__(
        self,
        game: Game,
        env_config: dict[str, Any],
        players: tuple[int, int],
        pool: OpponentPool,
        num_envs: int,
        seed: int | None = None,
        prior: str | None = None,
        privileged: bool = False,
    ) -> None:
        self.game, self.env_config, self.pool, self.prior = game, dict(env_config), pool, prior
        counts = list(range(int(players[0]), int(players[1]) + 1))
        self.rng = np.random.default_rng(seed)
        self.engine = vector.build(game, num_envs=num_envs, num_players=counts,
                                  seed=int(self.rng.integers(2**63)), **self.env_config)
        self.envs = {n: game.env(num_players=n, **self.env_config) for n in counts}
        self.obs_size, num_actions = self.engine.observation_size, self.engine.num_actions
        # a privileged critic's input follows the learner's observation: every seat's hidden information
        self.privileged_size = self.engine.privileged_size if privileged else 0
        if privileged and not self.privileged_size:
            raise ValueError(f"ppo.critic=privileged: {game.name}'s batched engine writes no privileged features; "
                             "set ppo.critic=own")
        tail = num_actions if prior else 0
        self.render_mode = None
        width = self.obs_size + self.privileged_size + tail
        super().__init__(num_envs, gym.spaces.Box(0.0, 1.0, (width,), np.float32),
                         gym.spaces.Discrete(num_actions))
        B, P = num_envs, self.engine.max_players
        self.seat = np.zeros(B, np.int64)  # the learner's seat per game
        self.actor = np.full((B, P), LEARNER, np.int64)  # who plays each seat (index into self.actors)
        self.snapshot = np.full((B, P), -1, np.int64)  # the snapshot ident per seat, -1 for bots
        self.kinds: list[list[str]] = [[] for _ in range(B)]
        self.actors: list[Agent] = []
        self._actor_index: dict[tuple, int] = {}
        # the observations handed out alternate between two arrays, none made per step: SB3's rollout
        # reads the last step's array (and copies it into its buffer) while this step's is written
        self._obs = [np.zeros((B, self.observation_space.shape[0]), np.float32) for _ in range(2)]
        self._actions = np.zeros(B, np.int64)
        self._rows = np.arange(B)
        self.random_agent = RandomAgent(int(self.rng.integers(2**31)))
        self._position, self._group = np.zeros(0, np.int64), None  # snapshot policies deciding together
        self.batch = None

    # --- who sits where -----------------------------------------------------------------------------
    def _actor_for(self, key: tuple, n: int, build) -> int:
        """The actor `key` at `n` players: one for every count where it plays them all (its rows of
        every count then decide in one batch), else one per count."""
        for at in ((*key, None), (*key, n)):
            if at in self._actor_index:
                return self._actor_index[at]
        actor = build()
        at = (*key, None if actor.any_player_count else n)
        self._actor_index[at] = len(self.actors)
        self.actors.append(actor)
        return self._actor_index[at]

    def _bot(self, spec: str, n: int) -> int:
        return self._actor_for(("bot", spec), n,
                               lambda: make_agent(spec, self.envs[n], seed=int(self.rng.integers(2**31))))

    def _member(self, snap: Any, member: int, n: int) -> int:
        """A snapshot's member as a sampling policy (with its prior bot, if any, made at `n` players)."""
        def build() -> NumpyPolicy:
            p = snap.policy
            layers, head = p.members[member] if isinstance(p, MixturePolicy) else (p.layers, p.head)
            policy = NumpyPolicy(layers, head, p.activation, p.meta, sample=True,
                                 seed=int(self.rng.integers(2**63)), prior=p.prior, prior_weight=p.prior_weight)
            policy.temperature = p.temperature
            return policy.bind(self.envs[n], seed=int(self.rng.integers(2**31))) if p.prior else policy
        return self._actor_for(("self", snap.ident, member), n, build)

    def _seat_opponents(self, row: int) -> None:
        """Draw the learner's seat and every other seat's opponent for the new game in `row`."""
        n = int(self.batch.num_players[row])
        me = int(self.rng.integers(n))
        self.seat[row] = me
        self.actor[row] = LEARNER
        self.snapshot[row] = -1
        kinds = []
        for s in range(n):
            if s == me:
                kinds.append("learner")
                continue
            kind = self.pool.sample_kind(self.rng)
            if kind == "self":
                snap = self.pool.sample_snapshot(self.rng)
                weights = snap.policy.weights if isinstance(snap.policy, MixturePolicy) else None
                member = 0 if weights is None else int(self.rng.choice(len(weights), p=weights))
                self.actor[row, s] = self._member(snap, member, n)
                self.snapshot[row, s] = snap.ident
            elif kind == "random":
                self.actor[row, s] = self._actor_for(("random",), n, lambda: self.random_agent)
            else:
                self.actor[row, s] = self._bot(kind, n)
            kinds.append(kind)
        self.kinds[row] = kinds

    # --- playing ------------------------------------------------------------------------------------
    def _play_opponents(self, rewards: np.ndarray, dones: np.ndarray, infos: list[dict]) -> None:
        """Opponents move until every game waits for its learner; games that end pay their learner
        (into `rewards`, `dones`, `infos`) and start again, new seats drawn."""
        b, rows, actions = self.batch, self._rows, self._actions
        while True:
            who = self.actor[rows, b.current_player]
            deciding = who != LEARNER
            if not deciding.any():
                return
            position = self._group_position()[who]  # a learner's row reads the last actor's: masked below
            grouped = deciding & (position >= 0)
            alone = deciding & (position < 0)
            actions[:] = vector.WAIT
            if grouped.any():  # the snapshots' rows in one call, read where they lie in the batch
                sel = np.flatnonzero(grouped)
                actions[sel] = self._group.act_batch(position[sel], b.observation, b.action_mask, rows=sel)
            if alone.any():
                for k in np.unique(who[alone]).tolist():
                    sel = np.flatnonzero(who == k)
                    actions[sel] = self.actors[k].act_batch(b.observation[sel], b.action_mask[sel])
            self.batch = b = self.engine.step(actions)
            self._settle(np.flatnonzero(b.terminated), rewards, dones, infos)

    def _group_position(self) -> np.ndarray:
        """Each actor's place in the group of snapshot policies that decide together (-1: alone; even one
        snapshot decides faster there), the group made again when actors were added."""
        if len(self._position) != len(self.actors):
            kinds = [kind_of(a) for a in self.actors]
            lead = next((k for k in kinds if k is not None), None)  # a run's snapshots are all of one kind
            members = [i for i, k in enumerate(kinds) if k is not None and k == lead]
            self._position = np.full(len(self.actors), -1, np.int64)
            self._position[members] = np.arange(len(members))
            self._group = PolicyGroup([self.actors[k] for k in members]) if members else None
        return self._position

    def _settle(self, ended: np.ndarray, rewards: np.ndarray, dones: np.ndarray, infos: list[dict]) -> None:
        """Pay the learner of each game that just ended, and seat the game that replaced it."""
        b = self.batch
        for row in ended:
            n, me = int(b.ended_players[row]), int(self.seat[row])
            if not dones[row]:  # a game over before the learner's first move is not the learner's
                ranks = b.ranks[row, :n].tolist()
                points = pairwise_points(ranks, me)
                rewards[row] = b.rewards[row, me]
                dones[row] = True
                infos[row] = {
                    "win": win_shares(ranks)[me], "num_players": n,
                    "opponents": [k for k in self.kinds[row] if k != "learner"],
                    "pool_points": [(int(self.snapshot[row, s]), points[s]) for s in range(n)
                                    if self.snapshot[row, s] >= 0],
                }
            self._seat_opponents(row)

    def _observe(self) -> np.ndarray:
        self._obs.reverse()
        b, obs = self.batch, self._obs[0]
        obs[:, : self.obs_size] = b.observation
        tail_at = self.obs_size + self.privileged_size  # where the prior's one-hot starts
        if self.privileged_size:
            self.engine.write_privileged(obs[:, self.obs_size:tail_at], self._rows)
        if self.prior:
            obs[:, tail_at:] = 0.0
            by_count = np.zeros(self.engine.max_players + 1, np.int64)
            for n in np.unique(b.num_players).tolist():
                by_count[n] = self._bot(self.prior, n)
            who = by_count[b.num_players]
            for k, sel in rows_by(who):
                obs[sel, tail_at + self.actors[k].act_batch(b.observation[sel], b.action_mask[sel])] = 1.0
        return obs

    # --- VecEnv -------------------------------------------------------------------------------------
    def reset(self) -> np.ndarray:
        self.batch = self.engine.reset()
        for row in range(self.num_envs):
            self._seat_opponents(row)
        self._play_opponents(np.zeros(self.num_envs, np.float32), np.ones(self.num_envs, bool),
                             [{} for _ in range(self.num_envs)])
        return self._observe()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions[:] = np.asarray(actions).reshape(-1)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict]]:
        rewards = np.zeros(self.num_envs, np.float32)
        dones = np.zeros(self.num_envs, bool)
        infos: list[dict] = [{} for _ in range(self.num_envs)]
        self.batch = self.engine.step(self._actions)
        self._settle(np.flatnonzero(self.batch.terminated), rewards, dones, infos)
        self._play_opponents(rewards, dones, infos)
        return self._observe(), rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions in every game (MaskablePPO reads these)."""
        return self.batch.action_mask.astype(bool)

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list[Any]:
        if method_name == "action_masks":
            return list(self.action_masks())
        raise AttributeError(f"BatchedSelfPlayVecEnv has no per-env method {method_name!r}")

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [getattr(self, attr_name)] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self, attr_name, value)

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def seed(self, seed: int | None = None) -> Sequence[None]:
        self.rng = np.random.default_rng(seed)
        return [None] * self.num_envs

    def close(self) -> None:
        pass

    def _indices(self, indices: Any) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        return [indices] if isinstance(indices, int) else list(indices)
