"""A single-agent gymnasium view of a multi-player AEC game, for the learner (SIMPLE's selfplay wrapper).

Each episode draws the player count from the configured range and the learner's seat at random, fills
the other seats from the opponent pool, and plays the opponents until it is the learner's turn or the
game ends. The learner's terminal reward is read from the AEC env even when an opponent's move ends
the game. Opponents act from their own observation and mask only.

With `reward_baseline="heuristic"` (duplicate play) each deal is first played with the heuristic in the
learner's seat and the same opponents, whose random streams are then rewound; the learner is paid its
reward minus that game's, so deal luck cancels and a learner that plays the heuristic's moves earns 0.

With `prior` (a bot's name) the learner's observation ends with a one-hot of that bot's move for
it (zeros once the game is over), which a `training.network.prior.PriorPolicy` adds to its logits.
"""
from __future__ import annotations

import zlib
from typing import Any

import gymnasium as gym
import numpy as np

from corruption_envs.bots import make_agent
from corruption_envs.core import Agent, GameEnv, RandomAgent
from corruption_envs.core.rewards import pairwise_points, win_shares
from corruption_envs.core.game import Game

from .pool import OpponentPool, SampledPolicy


class SelfPlayEnv(gym.Env):
    """The learner's seat of `game`; every other seat is played by an opponent from `pool`."""

    metadata = {"render_modes": []}

    def __init__(
        self,
        game: Game,
        env_config: dict[str, Any],
        players: tuple[int, int],
        pool: OpponentPool,
        seed: int | None = None,
        prior: str | None = None,
        reward_baseline: str | None = None,
    ) -> None:
        self.game, self.env_config = game, dict(env_config)
        self.players = (int(players[0]), int(players[1]))
        self.pool = pool
        self._envs: dict[int, GameEnv] = {}
        self._bots: dict[tuple[str, int, int], Agent] = {}
        self.rng = np.random.default_rng(seed)
        self._bot_entropy = np.random.SeedSequence(seed).entropy  # fresh entropy when seed is None
        probe = self._env_for(self.players[0])
        # observations are padded to the game's max_players, so one size serves every player count
        self.obs_size = probe.observation_layout.size
        self.prior = prior
        self.reward_baseline = reward_baseline
        self.baseline_reward = 0.0  # what the heuristic earned in the learner's seat on this deal
        tail = probe.num_actions if prior else 0
        self.observation_space = gym.spaces.Box(0.0, 1.0, (self.obs_size + tail,), np.float32)
        self.action_space = gym.spaces.Discrete(probe.num_actions)
        self._obs = np.zeros(self.observation_space.shape, np.float32)  # reused: vec envs copy it
        self.env: GameEnv = probe
        self.learner = "player_0"
        self.opponents: list[Agent | None] = []
        self.opponent_ids: list[int | None] = []  # the snapshot id per seat, None for bots/learner
        self.opponent_kinds: list[str] = []
        self.random_agent = RandomAgent(int(self.rng.integers(2**31)))

    def _env_for(self, n: int) -> GameEnv:
        if n not in self._envs:
            self._envs[n] = self.game.env(num_players=n, **self.env_config)
        return self._envs[n]

    def _bot(self, spec: str, n: int, seat: int) -> Agent:
        """The named bot (one per spec, player count and seat, made on first use)."""
        key = (spec, n, seat)
        if key not in self._bots:
            # seeded apart from self.rng, so making a bot does not shift the episodes' random draws;
            # the heuristic keeps the stream it has always had
            spawn = (n, seat) if spec == "heuristic" else (n, seat, zlib.crc32(spec.encode()))
            seed = int(np.random.SeedSequence(self._bot_entropy, spawn_key=spawn).generate_state(1)[0])
            self._bots[key] = make_agent(spec, self._envs[n], seed=seed)
        return self._bots[key]

    def _heuristic(self, n: int, seat: int) -> Agent:
        return self._bot("heuristic", n, seat)

    def _draw_opponent(self, n: int, seat: int) -> tuple[Agent, int | None, str]:
        kind = self.pool.sample_kind(self.rng)
        if kind == "self":
            snap = self.pool.sample_snapshot(self.rng)
            prior_bot = self._bot(snap.policy.prior, n, seat) if snap.policy.prior else None
            # a mixture snapshot plays one member per seat and episode
            return SampledPolicy(snap.policy.draw(self.rng), self.rng, prior_bot), snap.ident, kind
        if kind == "random":
            return self.random_agent, None, kind
        return self._bot(kind, n, seat), None, kind

    # --- gymnasium API ------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
            self.random_agent = RandomAgent(int(self.rng.integers(2**31)))
        while True:
            n = int(self.rng.integers(self.players[0], self.players[1] + 1))
            env = self.env = self._env_for(n)
            me = int(self.rng.integers(n))
            self.learner = env.possible_agents[me]
            self.opponents, self.opponent_ids, self.opponent_kinds = [], [], []
            for seat in range(n):
                if seat == me:
                    agent, ident, kind = None, None, "learner"
                else:
                    agent, ident, kind = self._draw_opponent(n, seat)
                self.opponents.append(agent)
                self.opponent_ids.append(ident)
                self.opponent_kinds.append(kind)
            deal = int(self.rng.integers(2**63))
            if self.reward_baseline:
                self.baseline_reward = self._replay_with_heuristic(deal, me)
            env.reset(seed=deal)
            if not self._play_opponents():
                break  # the learner is on turn; (a game over before its first move is redrawn)
        return self._observe(over=False), {}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        env = self.env
        env.step(int(action))
        over = self._play_opponents()
        obs = self._observe(over)
        if not over:
            return obs, 0.0, False, False, {}
        return obs, float(env.rewards[self.learner]) - self.baseline_reward, True, False, self._finish()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now (MaskablePPO reads this through the vec env)."""
        return self.env.action_mask()

    def _observe(self, over: bool) -> np.ndarray:
        seen = self.env.observe(self.learner)
        if self.prior is None:
            return seen["observation"]
        obs = self._obs
        obs[: self.obs_size] = seen["observation"]
        obs[self.obs_size:] = 0.0
        if not over:
            seat = self.env.agent_name_mapping[self.learner]
            hint = self._bot(self.prior, len(self.env.possible_agents), seat).act(seen["observation"], seen["action_mask"])
            obs[self.obs_size + hint] = 1.0
        return obs

    # --- turn logic ------------------------------------------------------------------------------------
    def _play_opponents(self) -> bool:
        """Let opponents move until the learner is on turn; True when the game is over."""
        env = self.env
        learner = self.learner
        while not env.terminations[learner]:
            agent = env.agent_selection
            if agent == learner:
                return False
            seat = env.agent_name_mapping[agent]
            seen = env.observe(agent)
            env.step(self.opponents[seat].act(seen["observation"], seen["action_mask"]))
        return True

    def _replay_with_heuristic(self, deal: int, me: int) -> float:
        """The learner seat's reward on `deal` with the heuristic in it against the same opponents; their
        random streams are rewound afterwards, so the learner's game replays this one for as long as the
        learner plays the heuristic's moves."""
        env = self.env
        seats = [self._heuristic(len(self.opponents), me) if s == me else a for s, a in enumerate(self.opponents)]
        # every random stream an opponent or the learner's hint can draw from is the wrapper's own
        owned = (self.rng, self.random_agent, *self._bots.values())
        streams = [g for g in (getattr(x, "rng", x) for x in owned) if isinstance(g, np.random.Generator)]
        saved = [(g, g.bit_generator.state) for g in streams]
        env.reset(seed=deal)
        while not env.terminations[env.agent_selection]:
            seen = env.observe(env.agent_selection)
            actor = seats[env.agent_name_mapping[env.agent_selection]]
            env.step(actor.act(seen["observation"], seen["action_mask"]))
        reward = float(env.rewards[self.learner])
        for g, state in saved:
            g.bit_generator.state = state
        return reward

    def _finish(self) -> dict[str, Any]:
        env = self.env
        me = env.agent_name_mapping[self.learner]
        ranks = [env.infos[a].get("rank", 0.0) for a in env.possible_agents]
        points = pairwise_points(ranks, me)
        return {
            "win": win_shares(ranks)[me],
            "num_players": len(ranks),
            "opponents": [k for k in self.opponent_kinds if k != "learner"],
            # the trainer adds these to the pool's PFSP scores (the pool may live in another process)
            "pool_points": [(ident, points[seat]) for seat, ident in enumerate(self.opponent_ids)
                            if ident is not None],
        }

    # --- pool replicas (SubprocVecEnv workers hold their own copy of the trainer's pool) -----------------
    def add_snapshot(self, policy: Any, step: int, ident: int) -> None:
        if all(s.ident != ident for s in self.pool.snapshots):  # a shared pool has it already
            self.pool.add(policy, step, ident)

    def sync_pool_scores(self, scores: dict[int, tuple[float, float]]) -> None:
        for snap in self.pool.snapshots:
            if snap.ident in scores:
                snap.score, snap.games = scores[snap.ident]
