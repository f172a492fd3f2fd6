"""NumpyPolicy: an exported MLP actor played as a bot, greedy or sampling, with an optional prior bot."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..core import Agent, GameEnv, PolicyFileError
from ..core.agents import legal_counts, rows_by
from ..named_bots import named_bot
from ..core.game import game_of
from .writer import named_arrays, write_policy_file

ACTIVATIONS = ("tanh", "relu")
PRIORS = ("heuristic", "expert", "raider", "adaptive")  # rule bots a policy may build on (`Game.bots`)
# a batch's logits differ from one row's by float32 rounding: at most ~5e-7 of their scale on the committed
# policies; a choice closer than this share of the scale to another one is decided again from one row
ROUNDING = 1e-4
SPARSE_BLOCK = 64  # rows whose nonzero inputs are gathered together (Corruption's: 15% at 64 rows, half at 1024)


class NumpyPolicy(Agent):
    """An MLP actor: obs -> hidden layers -> logits; illegal actions masked out.

    With a `prior` bot (residual policy learning), the logit of the bot's move gets `prior_weight`
    added, so the network learns corrections to the bot rather than the whole game; such a policy
    builds its bot for an env with `bind(env)` (`load_policy` and `evaluate` do).
    Greedy (argmax of the legal logits) by default; with `sample=True` it draws from the masked
    softmax using its own generator seeded by `seed`.
    """

    def __init__(
        self,
        weights: list[tuple[np.ndarray, np.ndarray]],
        head: tuple[np.ndarray, np.ndarray],
        activation: str = "tanh",
        meta: dict[str, Any] | None = None,
        sample: bool = False,
        seed: int | None = None,
        prior: str | None = None,
        prior_weight: float = 0.0,
    ) -> None:
        if activation not in ACTIVATIONS:
            raise PolicyFileError(
                f"unknown activation {activation!r}; a policy file must use one of {ACTIVATIONS}"
            )
        if prior is not None and prior not in PRIORS:
            raise PolicyFileError(f"unknown prior {prior!r}; a policy file may build on one of {PRIORS}")
        self.layers, self.head = as_float32(weights, head)
        self.activation = activation
        self.meta = dict(meta or {})
        self.sample = sample
        self.rng = np.random.default_rng(seed)
        self.prior, self.prior_weight = prior, float(prior_weight)
        self.prior_bot: Agent | None = None  # built for one env by bind()
        # sampling draws from softmax(logits / temperature): > 1 spreads the moves of a peaked policy
        self.temperature = float(self.meta.get("temperature", 1.0))

    @property
    def any_player_count(self) -> bool:
        """The network reads every count's padded observation; a prior bot must play every count too."""
        return self.prior is None or (self.prior_bot is not None and self.prior_bot.any_player_count)

    def bind(self, env: GameEnv, seed: int | None = None) -> NumpyPolicy:
        """Ready this policy for `env`: a policy with a prior builds its bot there (seeded by `seed`)."""
        if self.prior is not None:
            self.prior_bot = named_bot(self.prior, game_of(env), env, seed)
        return self

    def seed(self, seed: int | None) -> None:
        """Reseed the sampling generator and the prior's bot, so a reused policy plays a game as a fresh
        one seeded alike would (tournaments and the gate reseed every agent per game)."""
        self.rng = np.random.default_rng(seed)
        if self.prior_bot is not None:
            self.prior_bot.seed(seed)

    @property
    def obs_size(self) -> int:
        return (self.layers[0][0] if self.layers else self.head[0]).shape[0]

    @property
    def num_actions(self) -> int:
        return self.head[0].shape[1]

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """Raw logits for one observation (1-D) or a batch (2-D), before masking."""
        x = np.asarray(observation, np.float32)
        relu = self.activation == "relu"
        for i, (w, b) in enumerate(self.layers):
            if i == 0:
                x = _sparse_product(x, w) if x.ndim == 1 else np.concatenate(
                    [_sparse_product(x[start:start + SPARSE_BLOCK], w) for start in range(0, len(x), SPARSE_BLOCK)])
            else:
                x = x @ w
            x += b
            if relu:
                np.maximum(x, 0.0, out=x)
            else:
                np.tanh(x, out=x)
        return x @ self.head[0] + self.head[1]

    def scores(self, observation: np.ndarray, action_mask: np.ndarray, prior_bot: Agent | None = None) -> np.ndarray:
        """Logits of one observation with the prior's bonus on its bot's move and -inf on illegal actions.
        `prior_bot` overrides the bound bot (the training pool gives each seat its own)."""
        legal = legal_moves(np.asarray(action_mask)[None])[0]
        return np.where(legal, self.logits_with_prior(observation, action_mask, prior_bot), -np.inf)

    def logits_with_prior(self, observation: np.ndarray, action_mask: np.ndarray,
                          prior_bot: Agent | None = None) -> np.ndarray:
        """Logits of one observation (1-D) or a batch (2-D) with the prior's bonus on its bot's move, every
        action finite (a search reuses them where other moves are legal)."""
        z = self.logits(observation)
        moves = self.prior_moves(np.atleast_2d(observation), np.atleast_2d(action_mask), prior_bot)
        if moves is not None:
            rows = np.atleast_2d(z)  # a view: adds to z
            rows[np.arange(len(rows)), moves] += self.prior_weight
        return z

    def prior_moves(self, observations: np.ndarray, action_masks: np.ndarray,
                     prior_bot: Agent | None = None) -> np.ndarray | None:
        """The prior bot's move for each row (None without a prior)."""
        if self.prior is None:
            return None
        bot = prior_bot or self.prior_bot
        if bot is None:
            raise RuntimeError(
                f"this policy builds on the {self.prior} bot, which is made per env: call "
                "policy.bind(env) first (load_policy and evaluate do it for you)"
            )
        return bot.act_batch(observations, action_masks)

    def draw(self, rng: np.random.Generator) -> NumpyPolicy:
        """The actor that plays one game: this one (a mixture draws a member)."""
        return self

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """One action per row: greedy, or sampled with one `rng.random()` per row in row order (what
        `rng.choice` draws), as `act` chooses (`choose_rows`)."""
        legal = legal_moves(action_masks)
        moves = self.prior_moves(observations, action_masks)
        one_row = len(observations) == 1  # the one-row product itself: exact, nothing to redo
        z = self.logits(observations[0])[None] if one_row else self.logits(observations)
        return choose_rows([self], np.zeros(len(z), np.int64), z, observations, legal, moves, exact=one_row)

    def save(self, path: str | Path) -> Path:
        """Write this policy as a pickle-free .npz (the format `load_policy` reads)."""
        return write_policy_file(path, self.file_meta(), named_arrays(self.layers, self.head))

    def file_meta(self) -> dict[str, Any]:
        """The metadata its file records: its own meta with its shape, activation and prior."""
        return {
            **self.meta,
            "activation": self.activation,
            "num_layers": len(self.layers),
            "obs_size": self.obs_size,
            "num_actions": self.num_actions,
            "prior": self.prior,
            "prior_weight": self.prior_weight,
        }


def choose_rows(policies: list[NumpyPolicy], which: np.ndarray, z: np.ndarray, observations: np.ndarray,
                legal: np.ndarray, moves: np.ndarray | None = None, exact: bool = False,
                rows: np.ndarray | None = None) -> np.ndarray:
    """Row i's action by policies[which[i]] (all greedy or all sampling, one shape) from its logits z[i],
    exactly as that policy's `act` chooses. A sampling policy draws one `rng.random()` for each of its
    rows, in row order. Logits of a batch come from one matrix product per layer, which rounds unlike
    the one-row product `act` has always used: a row whose choice is within that rounding of another
    choice is decided again from its one-row logits (`exact`: z are one-row logits, nothing to redo).
    `moves`: the prior bot's move per row, for policies with a prior (each adds its own weight).
    `rows`: row i's observation is observations[rows[i]] (None: observations[i])."""
    u = None
    if policies[0].sample:
        if len(policies) == 1:
            u = policies[0].rng.random(len(z))
        else:
            u = np.empty(len(z))
            for p, mine in rows_by(which):
                u[mine] = policies[p].rng.random(mine.size)
    # a single policy divides by its temperature (and adds its prior weight) as a Python float, rows of
    # several by theirs as float32: either way the float32 logits are divided (and added to) in float32
    if len(policies) == 1:
        temperature, weight = policies[0].temperature, policies[0].prior_weight
    else:
        temperature = np.array([p.temperature for p in policies], np.float32)[which][:, None]
        weight = None if moves is None else np.array([p.prior_weight for p in policies], np.float32)[which]
    actions, fragile = _choose(_masked(z, legal, moves, weight), u, temperature, check=not exact)
    for r in [] if exact else np.flatnonzero(fragile).tolist():
        policy = policies[which[r]]
        one = _masked(policy.logits(observations[r if rows is None else rows[r]])[None], legal[r:r + 1],
                      None if moves is None else moves[r:r + 1], policy.prior_weight)
        t = temperature if np.isscalar(temperature) else policy.temperature
        actions[r] = _choose(one, None if u is None else u[r:r + 1], t, check=False)[0][0]
    return actions


def _masked(z: np.ndarray, legal: np.ndarray, moves: np.ndarray | None, weight: Any) -> np.ndarray:
    """Logits (k, A) with the prior's bonus `weight` (per row, or one for all) on its moves and -inf on
    illegal actions."""
    if moves is not None:
        z[np.arange(len(z)), moves] += weight
    return np.where(legal, z, -np.inf)


def _choose(z: np.ndarray, u: np.ndarray | None, temperature: Any, check: bool
            ) -> tuple[np.ndarray, np.ndarray | None]:
    """Per row of masked logits: the greedy action or, given uniforms `u`, the sampled one exactly as
    `rng.choice(A, p=softmax(z / temperature))` draws it; and, if `check`, whether float32 rounding
    of the logits (up to ROUNDING of their scale) could have changed that choice."""
    slack = ROUNDING * (1.0 + np.abs(np.where(np.isfinite(z), z, 0.0)).max(axis=1)) if check else None
    if u is None:
        return np.argmax(z, axis=1), _near_tie(z, slack) if check else None
    z = z / temperature
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    cdf = p.astype(np.float64).cumsum(axis=1)
    cdf /= cdf[:, -1:]
    actions = np.count_nonzero(cdf <= u[:, None], axis=1)  # cdf.searchsorted(u, side="right")
    if not check:
        return actions, None
    rows = np.arange(len(z))
    below = np.where(actions > 0, cdf[rows, np.maximum(actions - 1, 0)], 0.0)
    # each logit off by `slack` moves every probability by a factor within exp(+-2 slack / T)
    margin = 4 * slack / (temperature if np.isscalar(temperature) else temperature[:, 0]) + 1e-6
    return actions, (u - below <= margin) | (cdf[rows, actions] - u <= margin)


def _sparse_product(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """x @ w for one observation or a block of them. Observations are mostly one-hot zeros: reading only
    the rows of w of the inputs nonzero (in some row of the block) is up to 15x faster than the dense
    product on wide observations."""
    nz = np.flatnonzero(x if x.ndim == 1 else x.any(axis=0))
    return x[..., nz] @ w[nz] if 4 * nz.size < x.shape[-1] else x @ w


def _near_tie(z: np.ndarray, slack: np.ndarray) -> np.ndarray:
    """Rows whose two best logits lie within 2 slack of each other."""
    if z.shape[1] == 1:
        return np.zeros(len(z), bool)
    top2 = -np.partition(-z, 1, axis=1)[:, :2]
    return top2[:, 0] - top2[:, 1] <= 2 * slack


def legal_moves(action_masks: np.ndarray) -> np.ndarray:
    """The masks as booleans, refusing a row with no legal action (as a policy's `act` does)."""
    legal_counts(action_masks, "the policy")
    return np.asarray(action_masks) != 0


def as_float32(weights: list[tuple[np.ndarray, np.ndarray]], head: tuple[np.ndarray, np.ndarray]
               ) -> tuple[list[tuple[np.ndarray, np.ndarray]], tuple[np.ndarray, np.ndarray]]:
    """An actor's layers and head as contiguous float32 (what the products run on)."""
    layers = [(np.ascontiguousarray(w, np.float32), np.asarray(b, np.float32)) for w, b in weights]
    return layers, (np.ascontiguousarray(head[0], np.float32), np.asarray(head[1], np.float32))


def plays_sampling(meta: dict[str, Any]) -> bool:
    """A policy file's play mode: `meta.play` is "sample" or "greedy" (absent: greedy); a sampling
    policy draws at `meta.temperature` (absent: 1)."""
    return meta.get("play", "greedy") == "sample"
