"""Trained policies as plain numpy: load an exported policy file and play it as a bot, without torch.

A policy file is an `.npz` archive read with `allow_pickle=False`:

- `meta`: a 0-d unicode array holding JSON: format, format_version, game, game_version, min_players,
  max_players (the player counts it was trained for), obs_size, num_actions, activation, num_layers,
  prior and prior_weight (version 2: a bot whose move gets `prior_weight` added to its logit, or
  null), and free-form provenance (training config, git commit, steps).
- `w0, b0, ..., w{k-1}, b{k-1}`: the hidden layers of the actor, `w` shaped (inputs, outputs).
- `w_out, b_out`: the action head (logits).

A mixture file (version 3, `MixturePolicy`) holds K actors of one shape and a probability for each
(`meta.mixture`): member j's arrays are `m{j}_w0, m{j}_b0, ..., m{j}_w_out, m{j}_b_out`. It plays one
member per game, drawn by those weights (a PSRO meta-strategy, `training/psro.py`). Single-actor files
stay version 2, so older readers still read them; they refuse a mixture by its version.

A policy file is data from anyone. It is read without unpickling, each array's header checked before its
data is read (`safe_npz.py`: no forged shape can make it allocate more than 256 MiB); anything else (a
pickled object, metadata that is not a JSON object or has a field of the wrong kind, a missing array,
weights that are not floating point, a wrong shape, NaN weights) fails with a `PolicyFileError` naming the
problem and the fix.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from .core import Agent, GameEnv, PolicyFileError
from .core.agents import act_batch, first_row, legal_counts, seed_agent
from .named_bots import named_bot
from .safe_npz import NpzError, read_npz

FORMAT = "corruption_envs.policy"
FORMAT_VERSION = 2
MIXTURE_VERSION = 3  # a mixture of actors (meta.mixture); single-actor files keep version 2
READS_VERSIONS = (1, 2, 3)  # version 1 files predate the prior and have none
MAX_MEMBERS = 64
ACTIVATIONS = ("tanh", "relu")
PRIORS = ("heuristic",)  # bots a policy may build on (`named_bots.NAMED_BOTS`)
# a batch's logits differ from one row's by float32 rounding: at most ~5e-7 of their scale on the committed
# policies; a choice closer than this share of the scale to another one is decided again from one row
ROUNDING = 1e-4
SPARSE_BLOCK = 64  # rows whose nonzero inputs are gathered together (Corruption's: 15% at 64 rows, half at 1024)


class NumpyPolicy:
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
        self.layers, self.head = _as_float32(weights, head)
        self.activation = activation
        self.meta = dict(meta or {})
        self.sample = sample
        self.rng = np.random.default_rng(seed)
        self.prior, self.prior_weight = prior, float(prior_weight)
        self.prior_bot: Agent | None = None  # built for one env by bind()
        # sampling draws from softmax(logits / temperature): > 1 spreads the moves of a peaked policy
        self.temperature = float(self.meta.get("temperature", 1.0))

    def bind(self, env: GameEnv, seed: int | None = None) -> NumpyPolicy:
        """Ready this policy for `env`: a policy with a prior builds its bot there (seeded by `seed`)."""
        if self.prior is not None:
            self.prior_bot = named_bot(self.prior, env, seed)
        return self

    def seed(self, seed: int | None) -> None:
        """Reseed the sampling generator and the prior's bot, so a reused policy plays a game as a fresh
        one seeded alike would (tournaments and the gate reseed every agent per game)."""
        self.rng = np.random.default_rng(seed)
        if self.prior_bot is not None:
            seed_agent(self.prior_bot, seed)

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
        legal = _legal(np.asarray(action_mask)[None])[0]
        return np.where(legal, self.logits_with_prior(observation, action_mask, prior_bot), -np.inf)

    def logits_with_prior(self, observation: np.ndarray, action_mask: np.ndarray,
                          prior_bot: Agent | None = None) -> np.ndarray:
        """Logits of one observation with the prior's bonus on its bot's move, every action finite (a
        search reuses them where other moves are legal)."""
        z = self.logits(observation)
        moves = self._prior_moves(np.asarray(observation)[None], np.asarray(action_mask)[None], prior_bot)
        if moves is not None:
            z[moves[0]] += self.prior_weight
        return z

    def _prior_moves(self, observations: np.ndarray, action_masks: np.ndarray,
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
        return act_batch(bot, observations, action_masks)

    def draw(self, rng: np.random.Generator) -> NumpyPolicy:
        """The actor that plays one game: this one (a mixture draws a member)."""
        return self

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return first_row(self.act_batch(np.asarray(observation)[None], np.asarray(action_mask)[None]))

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """One action per row: greedy, or sampled with one `rng.random()` per row in row order (what
        `rng.choice` draws). A batch's logits come from one matrix product per layer, which rounds unlike
        the one-row product `act` has always used; a row whose choice is within that rounding of another
        choice is decided again from its one-row logits, so every row chooses exactly as `act` does."""
        legal = _legal(action_masks)
        moves = self._prior_moves(observations, action_masks)
        one_row = len(observations) == 1  # the one-row product itself: exact, nothing to redo
        z = self.logits(observations[0])[None] if one_row else self.logits(observations)
        u = self.rng.random(len(z)) if self.sample else None
        actions, fragile = self._choose(self._masked(z, legal, moves), u, check=not one_row)
        for r in [] if one_row else np.flatnonzero(fragile):
            exact = self._masked(self.logits(observations[r])[None], legal[r:r + 1],
                                 None if moves is None else moves[r:r + 1])
            actions[r] = self._choose(exact, None if u is None else u[r:r + 1], check=False)[0][0]
        return actions

    def _masked(self, z: np.ndarray, legal: np.ndarray, moves: np.ndarray | None) -> np.ndarray:
        """Logits (k, A) with the prior's bonus on its moves and -inf on illegal actions."""
        if moves is not None:
            z[np.arange(len(z)), moves] += self.prior_weight
        return np.where(legal, z, -np.inf)

    def _choose(self, z: np.ndarray, u: np.ndarray | None, check: bool) -> tuple[np.ndarray, np.ndarray | None]:
        """Per row of masked logits: the greedy action or, given uniforms `u`, the sampled one exactly as
        `rng.choice(A, p=softmax(z / temperature))` draws it; and, if `check`, whether float32 rounding
        of the logits (up to ROUNDING of their scale) could have changed that choice."""
        slack = ROUNDING * (1.0 + np.abs(np.where(np.isfinite(z), z, 0.0)).max(axis=1)) if check else None
        if u is None:
            return np.argmax(z, axis=1), _near_tie(z, slack) if check else None
        z = z / self.temperature
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
        margin = 4 * slack / self.temperature + 1e-6
        return actions, (u - below <= margin) | (cdf[rows, actions] - u <= margin)

    def save(self, path: str | Path) -> Path:
        """Write this policy as a pickle-free .npz (the format `load_policy` reads)."""
        return self._write(path, FORMAT_VERSION, {}, _named_arrays(self.layers, self.head))

    def _write(self, path: str | Path, version: int, extra_meta: dict[str, Any],
               weights: dict[str, np.ndarray]) -> Path:
        meta = {
            **self.meta,
            "format": FORMAT,
            "format_version": version,
            "activation": self.activation,
            "num_layers": len(self.layers),
            "obs_size": self.obs_size,
            "num_actions": self.num_actions,
            "prior": self.prior,
            "prior_weight": self.prior_weight,
            **extra_meta,
        }
        arrays = {"meta": np.array(json.dumps(meta, sort_keys=True)), **weights}
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as f:  # a file object keeps numpy from appending a second .npz
            np.savez_compressed(f, **arrays)
        return path


class MixturePolicy(NumpyPolicy):
    """K actors of one shape with a probability each: every game it plays one member, drawn by weight
    from its own generator, at `seed()` (tournaments and the gate reseed an agent per game) and at
    `start_game()` (`evaluate` calls it before every game). A best response must then beat the
    mixture, not one net (PSRO's meta-strategy, `training/psro.py`). `act_batch` plays the member drawn
    last for every row it is given, as `act` does until the next draw: a batched caller that runs one
    game per row and wants a member per game draws per game and batches the rows of each member."""

    def __init__(
        self,
        members: list[tuple[list[tuple[np.ndarray, np.ndarray]], tuple[np.ndarray, np.ndarray]]],
        weights: list[float] | np.ndarray,
        **options: Any,
    ) -> None:
        """`options`: NumpyPolicy's (activation, meta, sample, seed, prior, prior_weight), shared by all."""
        w = np.asarray(weights, np.float64)
        if not (1 <= len(members) == w.size <= MAX_MEMBERS and np.isfinite(w).all() and (w >= 0).all()
                and w.sum() > 0):
            raise PolicyFileError(
                f"a mixture needs 1-{MAX_MEMBERS} members and as many finite weights >= 0 with a positive "
                f"sum; got {len(members)} members and weights {list(weights)!r:.80}"
            )
        super().__init__(*members[0], **options)
        self.members = [_as_float32(*m) for m in members]
        self.weights = w / w.sum()
        self.member = 0
        self.start_game()

    def start_game(self) -> None:
        """Draw the member that plays the next game."""
        self.member = self.draw_member()
        self.layers, self.head = self.members[self.member]

    def draw_member(self) -> int:
        """A member's index, drawn by weight from this mixture's generator."""
        return int(self.rng.choice(len(self.members), p=self.weights))

    def member_policies(self) -> list[NumpyPolicy]:
        """Each member as a policy that plays as this mixture does (sampling from this mixture's
        generator, with its bound prior bot): the match loop seats member `draw_member()` per game and
        batches each member's rows."""
        policies = []
        for layers, head in self.members:
            p = NumpyPolicy(layers, head, self.activation, self.meta, self.sample, None, self.prior,
                            self.prior_weight)
            p.rng, p.prior_bot, p.temperature = self.rng, self.prior_bot, self.temperature
            policies.append(p)
        return policies

    def seed(self, seed: int | None) -> None:
        super().seed(seed)
        self.start_game()

    def draw(self, rng: np.random.Generator) -> NumpyPolicy:
        """A member drawn by weight from `rng`, as a policy of its own (the pool's seats share this
        object, so each seat plays its own draw)."""
        layers, head = self.members[int(rng.choice(len(self.members), p=self.weights))]
        return NumpyPolicy(layers, head, self.activation, self.meta, self.sample, None, self.prior,
                           self.prior_weight)

    def save(self, path: str | Path) -> Path:
        weights: dict[str, np.ndarray] = {}
        for j, (layers, head) in enumerate(self.members):
            weights.update(_named_arrays(layers, head, f"m{j}_"))
        return self._write(path, MIXTURE_VERSION, {"mixture": self.weights.tolist()}, weights)


def mixture_of(policies: list[NumpyPolicy], weights: list[float] | np.ndarray,
               meta: dict[str, Any] | None = None) -> MixturePolicy:
    """One mixture of single-actor policies of one shape (activation, layers, prior), playing as `meta`
    says (default: the first one's meta)."""
    first = policies[0]
    for p in policies:
        if isinstance(p, MixturePolicy) or (p.activation, len(p.layers), p.obs_size, p.num_actions, p.prior) != (
                first.activation, len(first.layers), first.obs_size, first.num_actions, first.prior):
            raise PolicyFileError("a mixture's members are single actors of one shape (activation, "
                                  "layers, sizes, prior); export them alike")
    meta = dict(first.meta if meta is None else meta)
    return MixturePolicy([(p.layers, p.head) for p in policies], weights, activation=first.activation, meta=meta,
                         sample=plays_sampling(meta), prior=first.prior, prior_weight=first.prior_weight)


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


def _legal(action_masks: np.ndarray) -> np.ndarray:
    legal_counts(action_masks, "the policy")
    return np.asarray(action_masks) != 0


def _as_float32(weights: list[tuple[np.ndarray, np.ndarray]], head: tuple[np.ndarray, np.ndarray]
                ) -> tuple[list[tuple[np.ndarray, np.ndarray]], tuple[np.ndarray, np.ndarray]]:
    layers = [(np.ascontiguousarray(w, np.float32), np.asarray(b, np.float32)) for w, b in weights]
    return layers, (np.ascontiguousarray(head[0], np.float32), np.asarray(head[1], np.float32))


def _named_arrays(layers: list[tuple[np.ndarray, np.ndarray]], head: tuple[np.ndarray, np.ndarray],
                  prefix: str = "") -> dict[str, np.ndarray]:
    arrays = {}
    for i, (w, b) in enumerate(layers):
        arrays[f"{prefix}w{i}"], arrays[f"{prefix}b{i}"] = w, b
    arrays[f"{prefix}w_out"], arrays[f"{prefix}b_out"] = head
    return arrays


def plays_sampling(meta: dict[str, Any]) -> bool:
    """A policy file's play mode: `meta.play` is "sample" or "greedy" (absent: greedy); a sampling
    policy draws at `meta.temperature` (absent: 1)."""
    return meta.get("play", "greedy") == "sample"


# meta key -> the kind of JSON value it holds; the first five are required, the rest have defaults
META_FIELDS: dict[str, str] = {
    "format": "text", "format_version": "a whole number", "num_layers": "a whole number",
    "obs_size": "a whole number", "num_actions": "a whole number", "game": "text",
    "game_version": "a whole number", "min_players": "a whole number", "max_players": "a whole number",
    "activation": "text", "prior": "text or null", "prior_weight": "a number", "play": "text",
    "temperature": "a number", "mixture": "a list of numbers",
}
PLAY_MODES = ("greedy", "sample")
REQUIRED_META = ("format", "format_version", "num_layers", "obs_size", "num_actions")
MAX_LAYERS = 64
MAX_FILE_ARRAY_BYTES = 1 << 28  # 256 MiB of arrays: far above any policy, far below a forged header's ask
FIX = "re-export it with `python -m training.selfplay` or pick another file"


def _is_kind(value: Any, kind: str) -> bool:
    if kind == "text":
        return isinstance(value, str)
    if kind == "text or null":
        return value is None or isinstance(value, str)
    if kind == "a list of numbers":
        return isinstance(value, list) and all(_is_kind(v, "a number") for v in value)
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    return number and (kind == "a number" or isinstance(value, int))


def _read_meta(where: str, arrays: dict[str, np.ndarray]) -> dict[str, Any]:
    """The metadata record, every field of its kind and in range."""
    record = arrays.get("meta")
    if record is None or record.dtype.kind != "U" or record.ndim != 0:
        raise PolicyFileError(f"{where} has no 'meta' record (0-d text); {FIX}")
    try:
        meta = json.loads(str(record))
    except (ValueError, RecursionError) as e:
        raise PolicyFileError(f"{where} has unreadable metadata ({e}); {FIX}") from None
    if not isinstance(meta, dict):
        raise PolicyFileError(
            f"{where} has metadata {type(meta).__name__} {meta!r:.60}, not a JSON object; {FIX}"
        )
    missing = [k for k in REQUIRED_META if k not in meta]
    if missing:
        raise PolicyFileError(f"{where} has metadata without {missing}; {FIX}")
    for key, kind in META_FIELDS.items():
        if key in meta and not _is_kind(meta[key], kind):
            raise PolicyFileError(f"{where}: metadata {key} is {meta[key]!r:.60}, not {kind}; {FIX}")
    if meta["format"] != FORMAT or meta["format_version"] not in READS_VERSIONS:
        raise PolicyFileError(
            f"{where} has format {meta['format']!r} version {meta['format_version']!r}; this "
            f"corruption_envs reads {FORMAT!r} versions {list(READS_VERSIONS)}; {FIX}"
        )
    weights = meta.get("mixture")
    if (weights is not None) != (meta["format_version"] == MIXTURE_VERSION):
        raise PolicyFileError(
            f"{where}: format version {meta['format_version']} {'with' if weights is not None else 'without'} "
            f"a mixture; a mixture (meta.mixture) is version {MIXTURE_VERSION} and only it; {FIX}"
        )
    if weights is not None and not (1 <= len(weights) <= MAX_MEMBERS and all(0 <= w < 1e308 for w in weights)
                                     and sum(weights) > 0):
        raise PolicyFileError(
            f"{where}: mixture weights {weights!r:.60} must be 1-{MAX_MEMBERS} finite numbers >= 0 with a "
            f"positive sum; {FIX}"
        )
    lo = meta.get("min_players", 1)
    hi = meta.get("max_players", lo)
    if not (0 <= meta["num_layers"] <= MAX_LAYERS and meta["obs_size"] > 0 and meta["num_actions"] > 0
            and 1 <= lo <= hi):
        raise PolicyFileError(
            f"{where}: metadata num_layers {meta['num_layers']}, obs_size {meta['obs_size']}, num_actions "
            f"{meta['num_actions']}, players {lo}-{hi} are out of range (0-{MAX_LAYERS} layers, sizes >= 1, "
            f"1 <= min_players <= max_players); {FIX}"
        )
    if meta.get("activation", "tanh") not in ACTIVATIONS:
        raise PolicyFileError(
            f"{where}: unknown activation {meta['activation']!r}; a policy file must use one of "
            f"{ACTIVATIONS}; {FIX}"
        )
    prior, weight = meta.get("prior"), meta.get("prior_weight", 0.0)
    if prior is not None and (prior not in PRIORS or not np.isfinite(weight)):
        raise PolicyFileError(
            f"{where} names prior {prior!r} with weight {weight!r}; a prior must be one "
            f"of {PRIORS} with a finite weight; {FIX}"
        )
    if meta.get("play", "greedy") not in PLAY_MODES:
        raise PolicyFileError(f"{where}: metadata play is {meta['play']!r:.40}, not one of {PLAY_MODES}; {FIX}")
    temperature = meta.get("temperature", 1.0)
    if not 0 < temperature < 1e3:
        raise PolicyFileError(
            f"{where} has play temperature {temperature!r}; it must be a number in (0, 1000); {FIX}"
        )
    return meta


def _read_layers(
    where: str, arrays: dict[str, np.ndarray], meta: dict[str, Any], prefix: str = ""
) -> list[tuple[np.ndarray, np.ndarray]]:
    """The hidden layers then the head (of the member whose arrays start with `prefix`): float arrays,
    finite, chaining from obs_size to num_actions."""
    member = f"member {prefix[1:-1]}'s " if prefix else ""
    names = [(f"{member}layer {i}", f"{prefix}w{i}", f"{prefix}b{i}") for i in range(meta["num_layers"])]
    names.append((f"{member}action head", f"{prefix}w_out", f"{prefix}b_out"))
    width, layers = meta["obs_size"], []
    for name, wkey, bkey in names:
        absent = [k for k in (wkey, bkey) if k not in arrays]
        if absent:
            raise PolicyFileError(f"{where} lacks the weight array {absent[0]!r}; {FIX}")
        w, b = arrays[wkey], arrays[bkey]
        if w.dtype.kind != "f" or b.dtype.kind != "f":
            raise PolicyFileError(
                f"{where}: {name} has weights of dtype {w.dtype} and bias of dtype {b.dtype}; both must be "
                f"floating point; {FIX}"
            )
        if w.ndim != 2 or b.shape != (w.shape[1],) or w.shape[0] != width:
            raise PolicyFileError(
                f"{where}: {name} has weights {w.shape} and bias {b.shape}, which do "
                f"not chain from width {width}; {FIX}"
            )
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise PolicyFileError(f"{where}: {name} holds non-finite weights (NaN or infinity); {FIX}")
        width = w.shape[1]
        layers.append((w, b))
    if width != meta["num_actions"]:
        raise PolicyFileError(
            f"{where}: its head gives {width} logits but meta says {meta['num_actions']} actions; {FIX}"
        )
    return layers


def read_policy_file(path: str | Path) -> NumpyPolicy:
    """Parse a policy file without checking it against any env (raises PolicyFileError)."""
    where = f"policy file {str(path)!r}"
    try:
        arrays = read_npz(path, MAX_FILE_ARRAY_BYTES)
    except FileNotFoundError:
        raise PolicyFileError(f"{where} does not exist") from None
    except NpzError as e:
        raise PolicyFileError(f"{where} is corrupt or not a policy .npz ({e}); {FIX}") from None
    meta = _read_meta(where, arrays)
    options = {"activation": meta.get("activation", "tanh"), "meta": meta, "prior": meta.get("prior"),
               "prior_weight": meta.get("prior_weight", 0.0)}
    if "mixture" not in meta:
        *layers, head = _read_layers(where, arrays, meta)
        return NumpyPolicy(layers, head, **options)
    members = []
    for j in range(len(meta["mixture"])):
        *layers, head = _read_layers(where, arrays, meta, f"m{j}_")
        members.append((layers, head))
    return MixturePolicy(members, meta["mixture"], **options)


def check_compatible(policy: NumpyPolicy, env: GameEnv, source: str = "the policy") -> None:
    """Raise PolicyFileError unless `policy` was trained for `env`'s game, player count and spaces."""
    env = env.unwrapped
    meta, rules = policy.meta, env.rules
    if meta.get("game") != rules.name:
        raise PolicyFileError(
            f"{source} was trained for game {meta.get('game')!r}, not {rules.name!r}; "
            f"load a policy from policies/{rules.name}/ or train one with "
            f"`python -m training.selfplay --game {rules.name}`"
        )
    lo, hi = meta.get("min_players", rules.min_players), meta.get("max_players", rules.max_players)
    if not lo <= rules.num_players <= hi:
        raise PolicyFileError(
            f"{source} was trained for {lo}-{hi} players, but this env has {rules.num_players}; "
            f"use num_players in [{lo}, {hi}] or train with that player count"
        )
    if policy.obs_size != env.observation_layout.size or policy.num_actions != env.num_actions:
        raise PolicyFileError(
            f"{source} expects observations of size {policy.obs_size} and {policy.num_actions} "
            f"actions, but {rules.name} v{rules.version} has {env.observation_layout.size} and "
            f"{env.num_actions} (game version of the policy: {meta.get('game_version')!r}); "
            "retrain it against this version of the game"
        )


def load_policy(
    path: str | Path, env: GameEnv, sample: bool | None = None, seed: int | None = None
) -> NumpyPolicy:
    """A bot for `env` from an exported policy file: greedy, or sampling from its own seeded RNG;
    by default as the file's `meta.play` says (greedy when absent)."""
    policy = read_policy_file(path)
    check_compatible(policy, env, f"policy file {str(path)!r}")
    policy.sample = plays_sampling(policy.meta) if sample is None else sample
    policy.seed(seed)  # a mixture draws its first game's member here, from `seed`
    return policy.bind(env, seed)
