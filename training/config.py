"""The training config: typed sections with defaults, YAML loading, `--set key=value` overrides, validation.

Every key is a field of a pydantic model below with its default and what it accepts, so an unknown key or
a bad value fails at start with one line naming it, its value and what is allowed, instead of an hour
into a run; code reads attributes (`config.ppo.learning_rate`). The game's own options (`env:` section,
a free map) are checked by the game itself (`Rules.make_config`).

Layers, each over the one before: the defaults < the YAML file < `--set` < flags (`--seed`, ...). A
section written in a layer changes only the keys it names; a map value (`pool.mix`, `psro.mix`, `env`)
written whole replaces the map below it, and `--set pool.mix.random=0.2` sets one entry of it.
"""
from __future__ import annotations

import copy
import typing
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, field_validator, model_validator

import corruption_envs
from corruption_envs.bots import is_bot_name, make_agent
from corruption_envs.core.config import ConfigError
from corruption_envs.core.game import Game
from corruption_envs.policy.inference import PRIORS
from corruption_envs.registry import get_game
from corruption_envs.search import is_search_spec

BOTS = "'random', 'heuristic', 'expert', 'ismcts:N', 'pimc:N'"  # the bots a config may name


def Int(lo: int, hi: int | None = None) -> Any:  # noqa: N802 (a type, as the fields read)
    """An integer >= lo (and <= hi); never a bool."""
    return Annotated[int, Field(ge=lo, le=hi, description=f"an integer >= {lo}" + (
        f" and <= {hi}" if hi is not None else ""))]


def Number(lo: float, hi: float, lo_open: bool = False) -> Any:  # noqa: N802
    """A number in [lo, hi] (or (lo, hi]), kept as written (5 stays an int); never a bool."""
    bound = {"gt": lo} if lo_open else {"ge": lo}
    return Annotated[int | float, Field(le=hi, **bound,
                                        description=f"a number in {'(' if lo_open else '['}{lo}, {hi}]")]


def Described(kind: Any, allowed: str) -> Any:  # noqa: N802
    """A value of `kind` whose further checks (a field validator) are described by `allowed`."""
    return Annotated[kind, Field(description=allowed)]


def _names_an_agent(v: Any) -> bool:
    """A bot's name or the path of an exported policy file (read pickle-free; whether it loads is
    `check_bots`' to say)."""
    return is_bot_name(v) or (isinstance(v, str) and v.endswith(".npz"))


def _not_blank(v: str | None) -> str | None:
    if v is not None and not v.strip():
        raise ValueError("blank")
    return v


def _check_mix(v: dict[str, int | float]) -> dict[str, int | float]:
    if not (all(k == "self" or _names_an_agent(k) for k in v)
            and all(x >= 0 for x in v.values()) and sum(v.values()) > 0):
        raise ValueError("not a mix")
    return v


def _check_mix_with_self(v: dict[str, int | float]) -> dict[str, int | float]:
    if _check_mix(v).get("self", 0) <= 0:
        raise ValueError("no self")
    return v


def parse_mix(text: str, where: str) -> dict[str, int | float]:
    """A mix written as YAML (`{self: 0.5, expert: 0.5}`) checked as `MIX_WITH_SELF` says; a ConfigError
    names `where` it came from."""
    try:
        mix = yaml.safe_load(text)
        if not (isinstance(mix, dict) and all(isinstance(k, str) and isinstance(x, int | float) and not isinstance(x, bool)
                                              for k, x in mix.items())):
            raise ValueError("not a map")
        return _check_mix_with_self(mix)
    except (yaml.YAMLError, ValueError):
        raise ConfigError(f"{where} {text!r} is not allowed: give {MIX_WITH_SELF} "
                          f"(e.g. '{{self: 0.5, heuristic: 0.3, expert: 0.2}}'; bots: {BOTS})") from None


def _check_players(v: list[int] | None) -> list[int] | None:
    if v is not None and not (len(v) == 2 and 1 <= v[0] <= v[1]):
        raise ValueError("not a range")
    return v


Mix = dict[str, int | float]
MIX_WITH_SELF = "a map like pool.mix whose 'self' (the current mixture) has a positive weight"
MIX_ALLOWED = (f"a map from 'self' (past snapshots), a bot ({BOTS}) or a policy file (.npz, playing as its "
               "file says) to non-negative weights, not all zero")


class Section(BaseModel):
    """One config section: its keys strictly typed (no '1' for 1, no true for 1), none unknown."""

    model_config = ConfigDict(strict=True, extra="forbid", validate_assignment=True)


class Run(Section):
    timesteps: Int(1) = 1_000_000
    seed: Int(0) = 0
    n_envs: Int(1, 256) = 8
    vec_env: Literal["dummy", "subproc", "batched"] = "dummy"
    torch_threads: Int(1, 64) = 1
    # None: the game's default player count (filled in by `load`, as is eval.num_players)
    players: Described(list[int] | None, "[min, max] player counts within the game's range") = None
    checkpoint_every: Int(1) = 100_000
    time_limit_minutes: Described(int | float, "a number of minutes >= 0 (0 = no limit)") = 0

    check_players = field_validator("players")(_check_players)

    @field_validator("time_limit_minutes")
    @classmethod
    def _minutes(cls, v: int | float) -> int | float:
        if not v >= 0:
            raise ValueError("negative")
        return v


def _rule_bot_or_none(v: str) -> str:
    if v != "none" and v not in PRIORS:  # the rule bots a policy file may name as its prior
        raise ValueError("not 'none' or a rule bot")
    return v


class PPO(Section):
    learning_rate: Number(0, 1, lo_open=True) = 3e-4
    lr_final_fraction: Number(0, 1) = 1.0
    n_steps: Int(8) = 256
    batch_size: Int(8) = 512
    n_epochs: Int(1, 100) = 4
    gamma: Number(0, 1) = 0.995
    gae_lambda: Number(0, 1) = 0.95
    clip_range: Number(0, 1, lo_open=True) = 0.2
    ent_coef: Number(0, 1) = 0.01
    vf_coef: Number(0, 10) = 0.5
    max_grad_norm: Number(0, 100, lo_open=True) = 0.5
    net_arch: Described(list[Annotated[int, Field(gt=0)]], "a non-empty list of positive integers") = [128, 128]
    activation: Literal["tanh", "relu"] = "tanh"
    # residual learning on a bot: its move's logit gets a learned bonus (training/network/prior.py)
    prior: Described(str, "'none' or a rule bot of the game (e.g. 'heuristic', 'expert')") = "none"
    prior_weight: Number(0, 20) = 3.0  # the bonus at the start
    check_prior = field_validator("prior")(_rule_bot_or_none)
    # duplicate play: the reward minus the heuristic's in the same seat, deal and opponents (wrapper.py)
    reward_baseline: Literal["none", "heuristic"] = "none"
    # privileged: the critic also reads every seat's hidden information in training (PerfectDou); the
    # actor, and so the exported policy, still reads the acting seat's observation only
    critic: Literal["own", "privileged"] = "own"

    @field_validator("net_arch")
    @classmethod
    def _net_arch(cls, v: list[int]) -> list[int]:
        if not v:
            raise ValueError("empty")
        return v


class Pool(Section):
    snapshot_every: Int(1) = 50_000
    max_snapshots: Int(1) = 20
    pfsp_power: Number(0, 10) = 2.0
    # PSRO in small: every `exploiter_every` steps a fresh learner trains `exploiter_steps` against
    # copies of the learner of that moment and joins the pool (training/ppo/exploiter.py); 0 = never
    exploiter_every: Int(0) = 0
    exploiter_steps: Int(1) = 50_000
    mix: Described(Mix, MIX_ALLOWED) = {"self": 0.6, "heuristic": 0.3, "random": 0.1}

    check_mix = field_validator("mix")(_check_mix)


class Init(Section):  # warm start from a policy file: the actor starts as that policy (training/ppo/init_policy.py)
    policy: Described(str | None, "null (a fresh network) or the path of an exported policy .npz") = None

    not_blank = field_validator("policy")(_not_blank)


def _bot(v: str) -> str:
    if not is_bot_name(v):
        raise ValueError("not a bot")
    return v


def _bot_or_policy_file(v: str) -> str:
    if not _names_an_agent(v):
        raise ValueError("not a bot or a policy file")
    return v


class Imitation(Section):  # warm start: copy a bot (the teacher) before self-play (training/ppo/imitation.py)
    games: Int(0) = 0  # teacher games to learn from; 0 = start from a random network
    teacher: Described(str, f"a bot: {BOTS}") = "heuristic"
    explore: Number(0, 1) = 0.1
    epochs: Int(1, 100) = 3
    batch_size: Int(8) = 256
    learning_rate: Number(0, 1, lo_open=True) = 1e-3

    check_teacher = field_validator("teacher")(_bot)


class Eval(Section):
    every: Int(1) = 50_000
    games: Int(1) = 200
    final_games: Int(1) = 1000
    count_games: Int(1) = 200  # final evaluation at each other trained player count
    # how the exported policy plays (meta.play): its argmax, or a draw from its softmax
    play: Literal["greedy", "sample"] = "greedy"
    # the exported policy samples from softmax(logits / T) (meta.temperature); training samples at 1
    temperature: Number(0, 100, lo_open=True) = 1.0
    select_from: Int(0) = 0  # also score the last N snapshots and keep the best (0 = final policy)
    select_games: Int(1) = 200
    num_players: Annotated[int | None, Field(ge=1, description="an integer >= 1")] = None  # None: the game's default player count (filled in by `load`)
    seed: Int(0) = 12345
    baselines: Described(list[str], f"a non-empty list of bots ({BOTS}) or policy files (.npz)") = [
        "random", "heuristic"]
    # baselines also measured the other way round (one bot against copies of the policy) at every
    # periodic evaluation; the final table measures every baseline both ways
    reverse: Described(list[str], "a list of entries of eval.baselines") = []

    @field_validator("baselines")
    @classmethod
    def _baselines(cls, v: list[str]) -> list[str]:
        if not v or not all(_names_an_agent(b) for b in v):
            raise ValueError("not baselines")
        return v


class PSRO(Section):  # python -m training.psro (training/psro.py): the champion as a mixture of best responses
    start: Described(str, "'random' (a uniform policy), 'selfplay' (self-play with this config first) or "
                          "the path of a policy file") = "random"
    iterations: Int(1, 63) = 4  # best responses added, each to the mixture of the ones before
    br_steps: Int(1) = 150_000
    payoff_games: Int(1) = 60  # per meta-game table entry (a member vs 3 copies of another)
    temperature: Number(0, 100, lo_open=True) = 1.0  # the mixture's members sample at it
    # each best response's opponent seats: 'self' is the current mixture, beside any named bots
    mix: Described(Mix, MIX_WITH_SELF) = {"self": 1.0}
    # 'fresh': every best response starts from a random network; 'start': from psro.start's actor
    br_init: Literal["fresh", "start"] = "fresh"

    not_blank = field_validator("start")(_not_blank)

    check_mix = field_validator("mix")(_check_mix_with_self)


class AnswerGroup(Section):  # an entry of ei.answers
    count: Int(1, 32)  # fresh learners, one after another, each against the policy and the group's answers so far
    steps: Int(1) = 150_000  # each learner's steps, on the config's ppo (as benchmarks.exploit trains its probe)
    mix: Described(Mix, MIX_WITH_SELF) = {"self": 1.0}  # each learner's opponent seats, as psro.mix
    players: Described(list[int] | None, "[min, max] player counts (null: run.players)") = None

    check_mix = field_validator("mix")(_check_mix_with_self)
    check_players = field_validator("players")(_check_players)


ANSWER_GROUPS = ("a list of answer groups, each a map with count (1-32) and optionally steps, mix (as psro.mix, "
                 "with 'self') and players ([min, max]), e.g. [{count: 3, mix: {self: 0.8, expert: 0.2}}]")


class ExpertIteration(Section):  # python -m training.expert_iteration: search distilled into the policy
    start: Described(str | None, "the path of a policy file (of a mixture: as ei.members says)") = None
    # of a mixture start: 'top' fits its highest-weight member as the one student; 'each' fits every
    # member as a student of its own (its own games and search) and keeps the mixture's weights
    members: Literal["top", "each"] = "top"
    # with members 'each', the new mixture's weights: the start's, uniform, or 'solve' (PSRO's meta-game
    # over the students, psro.payoff_games games an entry, solved as psro solves it)
    weights: Literal["start", "uniform", "solve"] = "start"
    # the final policy's play temperature, written to its file (null: as its start plays)
    temperature: Annotated[int | float | None, Field(gt=0, le=100, description="null or a number in (0, 100]")] = None
    iterations: Int(1, 20) = 1  # each: the current policy's games, its guided search's targets, a fit
    # then groups of best responses to the final policy join it, every one at an equal share (PSRO with a
    # uniform meta-strategy); each group answers the policy and its own earlier answers
    answers: Described(list[AnswerGroup], ANSWER_GROUPS) = []
    games: Int(2) = 400  # half the policy against opponents, half one opponent against copies of it
    # a bot, or a policy file playing as its file says (a best response, so that the search meets its play)
    opponent: Described(str, f"a bot ({BOTS}) or a policy file (.npz)") = "heuristic"
    keep: Number(0, 1, lo_open=True) = 0.5  # share of the policy's decisions (with a choice) searched
    simulations: Int(1) = 100  # the search's budget per position
    rollout: Literal["random", "heuristic"] = "random"  # how the search plays each simulation out
    # the search's guide: 'student' the current policy; 'start' the ei.start file as it is (a mixture whole)
    guide: Literal["student", "start"] = "student"
    target_temperature: Number(0, 10, lo_open=True) = 1.0  # the targets: visit shares ** (1 / this), renormalised
    epochs: Int(1, 100) = 4
    batch_size: Int(8) = 256
    learning_rate: Number(0, 1, lo_open=True) = 1e-4

    not_blank = field_validator("start")(_not_blank)
    check_opponent = field_validator("opponent")(_bot_or_policy_file)


class RLlib(Section):  # --backend rllib (training/rllib/backend.py); ppo, pool, run and eval keys apply as well
    num_env_runners: Int(0, 1024) = 0  # 0 = sample in the driver process
    num_envs_per_env_runner: Int(1, 256) = 1  # turn by turn; on the engine a runner plays run.n_envs
    num_learners: Int(0, 64) = 0  # 0 = learn in the driver process
    num_gpus_per_learner: Number(0.0, 8.0) = 0.0  # a cluster's GPUs for the update (0: CPU)
    train_batch_size: Int(64) = 4000  # env steps (every seat's) per training iteration
    address: Described(str | None, "null (a local Ray on 127.0.0.1) or a cluster address such as 'auto' or "
                                   "'10.0.0.1:6379'") = None

    not_blank = field_validator("address")(_not_blank)


class Config(BaseModel):
    """A whole training config; `load` builds and validates one, `dump` is what config.yaml holds."""

    model_config = ConfigDict(strict=True, extra="forbid", validate_assignment=True)

    game: str | None = None
    env: dict[str, Any] = {}  # the game's options, validated by the game
    run: Run = Field(default_factory=Run)
    ppo: PPO = Field(default_factory=PPO)
    pool: Pool = Field(default_factory=Pool)
    init: Init = Field(default_factory=Init)
    imitation: Imitation = Field(default_factory=Imitation)
    eval: Eval = Field(default_factory=Eval)
    psro: PSRO = Field(default_factory=PSRO)
    ei: ExpertIteration = Field(default_factory=ExpertIteration)
    rllib: RLlib = Field(default_factory=RLlib)
    _game: Game | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _resolve_game(self) -> Config:
        # the one place a run looks its game's name up; every layer below is handed the `Game`
        self._game = get_game(self.game) if self.game in corruption_envs.GAMES else None
        return self

    @property
    def game_def(self) -> Game:
        """The registered `Game` that `game` names (`load` has checked the name)."""
        if self._game is None:
            raise ConfigError(f"config game={self.game!r} is not allowed; choose one of {list(corruption_envs.GAMES)}")
        return self._game

    def dump(self) -> dict[str, Any]:
        """Plain data in the file's layout (sections in order), which `load` reads back to an equal config."""
        return self.model_dump()

    def get(self, dotted: str) -> Any:
        """The value of a dotted key, e.g. `config.get("ppo.prior")`."""
        section, key = dotted.split(".")
        return getattr(getattr(self, section), key)

    def updated(self, changes: dict[str, Any]) -> Config:
        """A copy with dotted keys set (`{"run.seed": 3, "pool.mix": {...}}`), each value checked."""
        data = self.dump()
        for dotted, value in changes.items():
            assign(data, dotted.split("."), value)
        return build(data)


SECTIONS: dict[str, type[Section]] = {
    name: typing.get_type_hints(Config)[name] for name in Config.model_fields if name not in ("game", "env")
}
TOP_LEVEL = tuple(Config.model_fields)


def defaults() -> dict[str, Any]:
    """The defaults as plain data (no game, the game's default player counts unset)."""
    return Config().dump()


def unknown_key(path: list[str]) -> ConfigError:
    section = path[0]
    if len(path) == 4 and section == "ei" and path[1] == "answers":  # a key inside an answer group
        return ConfigError(f"unknown config key {path[3]!r} in ei.answers[{path[2]}]; known keys: "
                           f"{sorted(AnswerGroup.model_fields)}")
    if section not in TOP_LEVEL:
        return ConfigError(f"unknown config key {section!r}; known top-level keys: {list(TOP_LEVEL)}")
    return ConfigError(f"unknown config key {'.'.join(path[:2])!r}; known keys in {section!r}: "
                       f"{sorted(SECTIONS[section].model_fields)}")


def check_known(path: list[str]) -> None:
    """A key path names a section and a key of it (any entry of a map below that)."""
    if path[0] not in TOP_LEVEL or (
            len(path) > 1 and path[0] in SECTIONS and path[1] not in SECTIONS[path[0]].model_fields):
        raise unknown_key(path)


def merge(base: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    """`given` (a file's mapping) laid over `base`: each section key by key, each value (a map too) whole;
    unknown keys fail, naming the known ones."""
    out = copy.deepcopy(base)
    for key, value in given.items():
        check_known([key])
        if key in SECTIONS:
            if not isinstance(value, dict):
                raise ConfigError(f"config {key} must be a mapping, got {value!r}")
            for sub, v in value.items():
                check_known([key, sub])
                out[key][sub] = copy.deepcopy(v)
        else:
            out[key] = copy.deepcopy(value)
    return out


def assign(data: dict[str, Any], parts: list[str], value: Any) -> None:
    """Set one dotted key in plain config data: `pool.mix.random` sets one entry of the map it reaches."""
    check_known(parts)
    node = data
    for p in parts[:-1]:
        if not isinstance(node.get(p), dict):
            node[p] = {}
        node = node[p]
    node[parts[-1]] = copy.deepcopy(value)


def parse_set(item: str) -> tuple[list[str], Any]:
    """'ppo.learning_rate=1e-4' -> (['ppo', 'learning_rate'], 0.0001); values are parsed as YAML."""
    if "=" not in item:
        raise ConfigError(f"--set {item!r} must look like section.key=value (e.g. ppo.n_epochs=8)")
    key, raw = item.split("=", 1)
    parts = key.strip().split(".")
    if not all(parts):
        raise ConfigError(f"--set {item!r} has an empty key part")
    try:
        value = yaml.safe_load(raw)
    except yaml.YAMLError as e:
        raise ConfigError(f"--set {item!r}: cannot parse value {raw!r} ({e})") from None
    if isinstance(value, str):  # PyYAML reads 1e-4 (no dot) as a string
        try:
            value = float(value)
        except ValueError:
            pass
    return parts, value


def build(data: dict[str, Any]) -> Config:
    """Plain config data as a Config, each key's type and range checked (the first problem, one line)."""
    try:
        return Config.model_validate(data)
    except ValidationError as e:
        raise first_problem(e, data) from None


def first_problem(error: ValidationError, data: dict[str, Any]) -> ConfigError:
    """Pydantic's first error as the line the config has always printed: the key, its value as given, and
    what is allowed (an unknown key first, as the layers report it)."""
    problems = sorted(error.errors(), key=lambda p: p["type"] != "extra_forbidden")
    loc = [str(x) for x in problems[0]["loc"]]
    if problems[0]["type"] == "extra_forbidden":
        return unknown_key(loc)
    if loc[0] == "game":
        return ConfigError(f"config game={data['game']!r} is not allowed; choose one of {list(corruption_envs.GAMES)}")
    if len(loc) == 1 or not isinstance(data.get(loc[0]), dict):
        return ConfigError(f"config {loc[0]} must be a mapping, got {data.get(loc[0])!r}")
    section, key = loc[0], loc[1]
    path, value, field = f"{section}.{key}", data[section][key], SECTIONS[section].model_fields[key]
    if (section, key) == ("ei", "answers") and len(loc) >= 4 and isinstance(value[int(loc[2])], dict):
        group, key = value[int(loc[2])], loc[3]  # a key inside an answer group
        path, field = f"ei.answers[{loc[2]}].{key}", AnswerGroup.model_fields[key]
        if key not in group:
            return ConfigError(f"config ei.answers[{loc[2]}] needs {key}: {field.description}")
        value = group[key]
    choices = typing.get_args(field.annotation) if typing.get_origin(field.annotation) is Literal else None
    if choices:
        return ConfigError(f"config {path}={value!r} is not allowed; choose one of {list(choices)}")
    return ConfigError(f"config {path}={value!r} is not allowed; {path} must be {field.description}")


def validate(config: Config) -> Config:
    """Check what no single key can: the game, its options and player counts, the bots for that game, and
    keys that must agree; builds the game's config once, so a bad game option fails now."""
    game = config.game
    if game not in corruption_envs.GAMES:
        raise ConfigError(f"config game={game!r} is not allowed; choose one of {list(corruption_envs.GAMES)}")
    if "num_players" in config.env:
        raise ConfigError("config env.num_players is not allowed; set run.players: [min, max] instead")
    rules = config.game_def.rules
    check_answer_groups(config)
    ranges = [("run.players", config.run.players)]
    ranges += [(f"ei.answers[{i}].players", g.players) for i, g in enumerate(config.ei.answers) if g.players]
    for where, (lo, hi) in ranges:
        if not rules.min_players <= lo <= hi <= rules.max_players:
            raise ConfigError(
                f"config {where}={[lo, hi]} is not allowed; {game} takes "
                f"{rules.min_players} to {rules.max_players} players"
            )
    if not rules.min_players <= config.eval.num_players <= rules.max_players:
        raise ConfigError(
            f"config eval.num_players={config.eval.num_players} is not allowed; {game} takes "
            f"{rules.min_players} to {rules.max_players} players"
        )
    try:
        rules.make_config(**config.env)
    except ValueError as e:
        raise ConfigError(f"config env: {e}") from None
    check_bots(config)
    stray = [b for b in config.eval.reverse if b not in config.eval.baselines]
    if stray:
        raise ConfigError(f"config eval.reverse entries {stray} are not allowed: each must be one of "
                          f"eval.baselines {config.eval.baselines}")
    # one policy serves every player count only where the spaces do not depend on it (Corruptia's
    # action layout grows with its board, so it trains at one count)
    counts = sorted({*range(lo, hi + 1), config.eval.num_players})
    sizes = {}
    for n in counts:
        game_rules = rules(rules.make_config(num_players=n, **config.env))
        sizes[n] = (game_rules.observation_layout.size, game_rules.num_actions)
    if len(set(sizes.values())) > 1:
        raise ConfigError(
            f"config run.players={[lo, hi]} with eval.num_players={config.eval.num_players} is not "
            f"allowed for {game}: its (observation, action) sizes differ by player count {sizes}; "
            "train and evaluate at one player count"
        )
    ppo = config.ppo
    if ppo.reward_baseline != "none" and config.imitation.games:
        raise ConfigError(
            f"config ppo.reward_baseline={ppo.reward_baseline!r} with imitation.games="
            f"{config.imitation.games} is not allowed: the warm start fits the critic to raw rewards, "
            "but duplicate play pays differences; set imitation.games=0"
        )
    teacher = config.imitation.teacher
    if ppo.prior != "none" and config.imitation.games and teacher != ppo.prior:
        raise ConfigError(
            f"config imitation.teacher={teacher!r} with ppo.prior={ppo.prior!r} is not allowed: a policy "
            f"with a prior already plays the prior's moves and the warm start fits its critic on the prior's "
            f"games; set imitation.teacher={ppo.prior!r}"
        )
    if config.run.vec_env == "batched":
        check_batched(config)
    if ppo.critic == "privileged":
        check_privileged(config)
    if (config.run.n_envs * ppo.n_steps) % ppo.batch_size:
        raise ConfigError(
            f"config ppo.batch_size={ppo.batch_size} must divide run.n_envs * ppo.n_steps = "
            f"{config.run.n_envs * ppo.n_steps}"
        )
    return config


def check_answer_groups(config: Config) -> None:
    """No two ei.answers groups alike: a group seeds its k-th answer run.seed + 500 + k, so alike groups
    would train the same learners."""
    groups = [(g.steps, sorted(g.mix.items()), g.players) for g in config.ei.answers]
    twins = [(i, j) for j in range(len(groups)) for i in range(j) if groups[i] == groups[j]]
    if twins:
        i, j = twins[0]
        raise ConfigError(f"config ei.answers[{i}] and ei.answers[{j}] are alike (steps, mix and players): they would "
                          f"train the same answers; make them one group with the sum of their counts")


def check_bots(config: Config) -> None:
    """Every bot the config names (opponents, baselines, the teacher) exists for its game."""
    mixes = (("pool.mix", config.pool.mix), ("psro.mix", config.psro.mix),
             *((f"ei.answers[{i}].mix", group.mix) for i, group in enumerate(config.ei.answers)))
    named = [(f"{where} key {k!r}", k) for where, mix in mixes for k in mix if k != "self"]
    named += [(f"eval.baselines entry {b!r}", b) for b in config.eval.baselines]
    named.append((f"imitation.teacher={config.imitation.teacher!r}", config.imitation.teacher))
    named.append((f"ei.opponent={config.ei.opponent!r}", config.ei.opponent))
    if config.ppo.prior != "none":
        named.append((f"ppo.prior={config.ppo.prior!r}", config.ppo.prior))
    probe = config.game_def.env(num_players=config.eval.num_players, **config.env)
    for where, spec in named:
        try:
            make_agent(spec, probe, seed=0)
        except ValueError as e:
            raise ConfigError(f"config {where} is not allowed: {e}") from None


def check_batched(config: Config) -> None:
    """run.vec_env=batched plays every opponent on a batch: no duplicate play (it replays each deal with
    the heuristic first) and no search bot (it plans on one AEC game)."""
    if config.ppo.reward_baseline != "none":
        raise ConfigError(
            f"config run.vec_env=batched with ppo.reward_baseline={config.ppo.reward_baseline!r} is not "
            "allowed: duplicate play replays every deal game by game; set run.vec_env=dummy"
        )
    searches = [k for k in config.pool.mix if is_search_spec(k)]
    if searches:
        raise ConfigError(
            f"config run.vec_env=batched with search bots {searches} in pool.mix is not allowed: a search "
            "plans on one AEC game; set run.vec_env=dummy"
        )


def check_privileged(config: Config) -> None:
    """A privileged critic reads every seat's information from the batched engine, where it has any."""
    if config.run.vec_env != "batched":
        raise ConfigError(f"config ppo.critic='privileged' with run.vec_env={config.run.vec_env!r} is not "
                          "allowed: every seat's information comes from the batched engine; set run.vec_env=batched")
    game = config.game_def
    if game.engine is None or not game.engine_class().privileged_size:
        raise ConfigError(f"config ppo.critic='privileged' is not allowed for {game.name}: its batched engine writes "
                          "no privileged features; set ppo.critic='own'")


# what a run plays besides learning, scaled down with a shorter run (scale_to_timesteps)
SCALED_GAMES = ("imitation.games", "eval.games", "eval.final_games", "eval.count_games", "eval.select_games")
MIN_GAMES = 20  # a scaled figure keeps at least this many games (where the config plays any)


def scale_to_timesteps(config: Config, planned: int, kept: set[str]) -> Config:
    """`config` for a run of fewer learner steps than the `planned` ones of its file (--timesteps): its
    imitation and evaluation games shrink by the same fraction (at least MIN_GAMES), so a smoke run is
    quick; the keys in `kept` (given with --set) stay as given."""
    fraction = config.run.timesteps / planned
    if fraction >= 1:
        return config
    for dotted in SCALED_GAMES:
        section, key = dotted.split(".")
        value = config.get(dotted)
        if dotted not in kept and value:
            setattr(getattr(config, section), key, min(value, max(MIN_GAMES, round(value * fraction))))
    return config


def plan(config: Config, backend: str = "sb3") -> str:
    """One line on what the run will play, printed before it starts (RLlib's loop trains no exploiters)."""
    run, im, ev, pool = config.run, config.imitation, config.eval, config.pool
    lo, hi = run.players
    others = sorted(set(range(lo, hi + 1)) - {ev.num_players})
    parts = [f"{run.timesteps:,} learner steps at {lo}-{hi} players"]
    if im.games:
        parts.insert(0, f"{im.games:,} {im.teacher} games to imitate")
    exploiters = run.timesteps // pool.exploiter_every if pool.exploiter_every else 0
    if exploiters and backend == "rllib":
        parts.append("no exploiters (pool.exploiter_every is the SB3 loop's)")
    elif exploiters:
        parts.append(f"{exploiters} exploiter(s) of {pool.exploiter_steps:,} steps (one every "
                     f"{pool.exploiter_every:,})")
    table = f"{ev.final_games:,} games per baseline at {ev.num_players} players"
    if others:
        table += f" and {ev.count_games:,} at each of {others}"
    parts.append(f"a final table of {table} against {', '.join(map(str, ev.baselines))}, and one of each "
                 f"against copies of the policy at {ev.num_players} players")
    return "plan: " + "; ".join(parts)


def bot_option(config: Config, key: str) -> str | None:
    """A `ppo` key naming a bot ('prior', 'reward_baseline'), or None for 'none'."""
    value = getattr(config.ppo, key)
    return None if value == "none" else value


def default_config_path(game: str) -> Path:
    """configs/<game>.yaml, the game's committed training config."""
    return Path(__file__).resolve().parent.parent / "configs" / f"{game}.yaml"


def load(
    game: str | None = None, path: str | Path | None = None, sets: list[str] = (), **overrides: Any
) -> Config:
    """The resolved config: defaults < YAML file (default configs/<game>.yaml) < --set < overrides."""
    if path is None:
        if game is None:
            raise ConfigError("give --game or --config")
        path = default_config_path(game)
    path = Path(path)
    data = read_yaml(path)
    try:
        config = merge(defaults(), data)
    except ConfigError as e:
        raise ConfigError(f"in {str(path)!r}: {e}") from None
    if game is not None:
        if config["game"] not in (None, game):
            raise ConfigError(f"--game {game} contradicts game: {config['game']} in {path}")
        config["game"] = game
    for item in sets:
        assign(config, *parse_set(item))
    for dotted, value in overrides.items():
        if value is not None:
            assign(config, dotted.split("."), value)
    if game is not None and config["game"] != game:
        raise ConfigError(f"--set game={config['game']} contradicts --game {game}; give the game once")
    return validate(with_game_defaults(build(config)))


def read_yaml(path: Path) -> dict[str, Any]:
    """A config file's mapping, read with yaml.safe_load (plain values only: no tags that build
    objects); every problem is one ConfigError naming the file, the place and the fix."""
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise ConfigError(f"config file {str(path)!r} does not exist") from None
    except OSError as e:
        raise ConfigError(
            f"config file {str(path)!r} cannot be read ({e.strerror}); give a readable YAML file"
        ) from None
    except UnicodeDecodeError as e:
        raise ConfigError(f"config file {str(path)!r} is not UTF-8 text (byte {e.start}); save it as UTF-8") from None
    try:
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        where = f" line {mark.line + 1} column {mark.column + 1}" if mark else ""
        problem = " ".join(f"{e.context or ''} {e.problem or ''}".split())
        fix = ("a config holds plain values only (numbers, strings, lists, mappings); remove the tag"
               if isinstance(e, yaml.constructor.ConstructorError)
               else "fix the YAML there (indent with spaces, not tabs; close every bracket and quote)")
        raise ConfigError(f"config file {str(path)!r}{where}: {problem}; {fix}") from None
    except yaml.YAMLError as e:
        raise ConfigError(f"config file {str(path)!r} is not valid YAML ({' '.join(str(e).split())})") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(
            f"config file {str(path)!r} holds a {type(data).__name__}; it must be a mapping of sections "
            f"({', '.join(TOP_LEVEL)}), e.g. 'game: corruption'"
        )
    return data


def with_game_defaults(config: Config) -> Config:
    """Player counts left unset take the game's default count (always within its range)."""
    if config.game in corruption_envs.GAMES:
        n = config.game_def.rules.default_players
        if config.run.players is None:
            config.run.players = [n, n]
        if config.eval.num_players is None:
            config.eval.num_players = n
    return config
