"""The training config: defaults, YAML loading, `--set key=value` overrides, and validation.

Every key is declared here with its default and what it accepts, as the games declare their options
(`corruption_envs.core.config.Option`, one system for both), so an unknown key or a bad value fails at
start with a message naming it (and what is allowed) instead of an hour into a run. The game's own
options (`env:` section) are checked by the game itself (`Rules.make_config`).
"""
from __future__ import annotations

import copy
import dataclasses
from pathlib import Path
from typing import Any, Callable

import yaml

import corruption_envs
from corruption_envs import vector
from corruption_envs.bots import is_bot_name, make_agent
from corruption_envs.core.config import ConfigError, Option
from corruption_envs.registry import get_game
from corruption_envs.search import is_search_spec


def Key(default: Any, check: Callable[[Any], bool], allowed: str) -> Option:  # noqa: N802 (the table's shorthand)
    """A training key: its default, and a check with the description of what it accepts."""
    return Option(default, check=check, allowed=allowed)


def _int(lo: int, hi: int | None = None) -> Option:
    def check(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and v >= lo and (hi is None or v <= hi)

    return Key(None, check, f"an integer >= {lo}" + (f" and <= {hi}" if hi is not None else ""))


def _float(lo: float, hi: float, lo_open: bool = False) -> Option:
    def check(v: Any) -> bool:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            return False
        return (v > lo if lo_open else v >= lo) and v <= hi

    return Key(None, check, f"a number in {'(' if lo_open else '['}{lo}, {hi}]")


def _with(key: Option, default: Any) -> Option:
    return dataclasses.replace(key, default=default)


def _choice(default: Any, *choices: Any) -> Option:
    return Option(default, choices=choices)


def _int_list(default: list[int]) -> Option:
    return Key(
        default,
        lambda v: isinstance(v, list) and len(v) > 0
        and all(isinstance(x, int) and not isinstance(x, bool) and x > 0 for x in v),
        "a non-empty list of positive integers",
    )


BOTS = "'random', 'heuristic', 'expert', 'ismcts:N', 'pimc:N'"  # the bots a config may name


def _players(v: Any) -> bool:
    return (
        isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in v)
        and 1 <= v[0] <= v[1]
    )


def _is_policy_file_name(v: Any) -> bool:
    """The path of an exported policy file (read pickle-free; whether it loads is `check_bots`' to say)."""
    return isinstance(v, str) and v.endswith(".npz")


def _mix(v: Any) -> bool:
    return (
        isinstance(v, dict) and all(k == "self" or is_bot_name(k) or _is_policy_file_name(k) for k in v)
        and all(isinstance(x, (int, float)) and not isinstance(x, bool) and x >= 0 for x in v.values())
        and sum(v.values()) > 0
    )


# section -> key -> Option; the `env` section is free-form and validated by the game.
SCHEMA: dict[str, dict[str, Option]] = {
    "run": {
        "timesteps": _with(_int(1), 1_000_000),
        "seed": _with(_int(0), 0),
        "n_envs": _with(_int(1, 256), 8),
        "vec_env": _choice("dummy", "dummy", "subproc", "batched"),
        "torch_threads": _with(_int(1, 64), 1),
        # None: the game's default player count (filled in by `load`, as is eval.num_players)
        "players": Key(None, _players, "[min, max] player counts within the game's range"),
        "checkpoint_every": _with(_int(1), 100_000),
        "time_limit_minutes": Key(
            0, lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0,
            "a number of minutes >= 0 (0 = no limit)",
        ),
    },
    "ppo": {
        "learning_rate": _with(_float(0, 1, lo_open=True), 3e-4),
        "lr_final_fraction": _with(_float(0, 1), 1.0),
        "n_steps": _with(_int(8), 256),
        "batch_size": _with(_int(8), 512),
        "n_epochs": _with(_int(1, 100), 4),
        "gamma": _with(_float(0, 1), 0.995),
        "gae_lambda": _with(_float(0, 1), 0.95),
        "clip_range": _with(_float(0, 1, lo_open=True), 0.2),
        "ent_coef": _with(_float(0, 1), 0.01),
        "vf_coef": _with(_float(0, 10), 0.5),
        "max_grad_norm": _with(_float(0, 100, lo_open=True), 0.5),
        "net_arch": _int_list([128, 128]),
        "activation": _choice("tanh", "tanh", "relu"),
        # residual learning on a bot: its move's logit gets a learned bonus (training/prior.py)
        "prior": _choice("none", "none", "heuristic", "expert"),
        "prior_weight": _with(_float(0, 20), 3.0),  # the bonus at the start
        # duplicate play: the reward minus the heuristic's in the same seat, deal and opponents (wrapper.py)
        "reward_baseline": _choice("none", "none", "heuristic"),
        # privileged: the critic also reads every seat's hidden information in training (PerfectDou); the
        # actor, and so the exported policy, still reads the acting seat's observation only
        "critic": _choice("own", "own", "privileged"),
    },
    "pool": {
        "snapshot_every": _with(_int(1), 50_000),
        "max_snapshots": _with(_int(1), 20),
        "pfsp_power": _with(_float(0, 10), 2.0),
        # PSRO in small: every `exploiter_every` steps a fresh learner trains `exploiter_steps` against
        # copies of the learner of that moment and joins the pool (training/exploiter.py); 0 = never
        "exploiter_every": _with(_int(0), 0),
        "exploiter_steps": _with(_int(1), 50_000),
        "mix": Key(
            {"self": 0.6, "heuristic": 0.3, "random": 0.1}, _mix,
            f"a map from 'self' (past snapshots), a bot ({BOTS}) or a policy file (.npz, "
            "playing as its file says) to non-negative weights, not all zero",
        ),
    },
    "init": {  # warm start from a policy file: the actor starts as that policy (training/init_policy.py)
        "policy": Key(None, lambda v: v is None or (isinstance(v, str) and v.strip() != ""),
                      "null (a fresh network) or the path of an exported policy .npz"),
    },
    "imitation": {  # warm start: copy a bot (the teacher) before self-play (training/imitation.py)
        "games": _with(_int(0), 0),  # teacher games to learn from; 0 = start from a random network
        "teacher": Key("heuristic", is_bot_name, f"a bot: {BOTS}"),
        "explore": _with(_float(0, 1), 0.1),
        "epochs": _with(_int(1, 100), 3),
        "batch_size": _with(_int(8), 256),
        "learning_rate": _with(_float(0, 1, lo_open=True), 1e-3),
    },
    "eval": {
        "every": _with(_int(1), 50_000),
        "games": _with(_int(1), 200),
        "final_games": _with(_int(1), 1000),
        "count_games": _with(_int(1), 200),  # final evaluation at each other trained player count
        # how the exported policy plays (meta.play): its argmax, or a draw from its softmax
        "play": _choice("greedy", "greedy", "sample"),
        # the exported policy samples from softmax(logits / T) (meta.temperature); training samples at 1
        "temperature": _with(_float(0, 100, lo_open=True), 1.0),
        "select_from": _with(_int(0), 0),  # also score the last N snapshots and keep the best (0 = final policy)
        "select_games": _with(_int(1), 200),
        "num_players": _with(_int(1), None),
        "seed": _with(_int(0), 12345),
        "baselines": Key(
            ["random", "heuristic"],
            lambda v: isinstance(v, list) and len(v) > 0 and all(is_bot_name(b) or _is_policy_file_name(b) for b in v),
            f"a non-empty list of bots ({BOTS}) or policy files (.npz)",
        ),
        # baselines also measured the other way round (one bot against copies of the policy) at every
        # periodic evaluation; the final table measures every baseline both ways
        "reverse": Key([], lambda v: isinstance(v, list) and all(isinstance(b, str) for b in v),
                       "a list of entries of eval.baselines"),
    },
    "psro": {  # python -m training.psro (training/psro.py): the champion as a mixture of best responses
        "start": Key("random", lambda v: isinstance(v, str) and v.strip() != "",
                     "'random' (a uniform policy), 'selfplay' (self-play with this config first) or the "
                     "path of a policy file"),
        "iterations": _with(_int(1, 63), 4),  # best responses added, each to the mixture of the ones before
        "br_steps": _with(_int(1), 150_000),
        "payoff_games": _with(_int(1), 60),  # per meta-game table entry (a member vs 3 copies of another)
        "temperature": _with(_float(0, 100, lo_open=True), 1.0),  # the mixture's members sample at it
        # each best response's opponent seats: 'self' is the current mixture, beside any named bots
        "mix": Key({"self": 1.0}, lambda v: _mix(v) and v.get("self", 0) > 0,
                   "a map like pool.mix whose 'self' (the current mixture) has a positive weight"),
        # 'fresh': every best response starts from a random network; 'start': from psro.start's actor
        "br_init": _choice("fresh", "fresh", "start"),
    },
    "rllib": {  # --backend rllib (training/rllib_backend.py); ppo, pool, run and eval keys apply as well
        "num_env_runners": _with(_int(0, 1024), 0),  # 0 = sample in the driver process
        "num_envs_per_env_runner": _with(_int(1, 256), 1),  # turn by turn; on the engine a runner plays run.n_envs
        "num_learners": _with(_int(0, 64), 0),  # 0 = learn in the driver process
        "num_gpus_per_learner": _with(_float(0.0, 8.0), 0.0),  # a cluster's GPUs for the update (0: CPU)
        "train_batch_size": _with(_int(64), 4000),  # env steps (every seat's) per training iteration
        "address": Key(
            None, lambda v: v is None or (isinstance(v, str) and v.strip() != ""),
            "null (a local Ray on 127.0.0.1) or a cluster address such as 'auto' or '10.0.0.1:6379'",
        ),
    },
}
TOP_LEVEL = ("game", "env", *SCHEMA)


def defaults() -> dict[str, Any]:
    config: dict[str, Any] = {"game": None, "env": {}}
    for section, keys in SCHEMA.items():
        config[section] = {k: copy.deepcopy(key.default) for k, key in keys.items()}
    return config


def merge(base: dict[str, Any], given: dict[str, Any], where: str = "") -> dict[str, Any]:
    """`given` laid over `base`; unknown keys fail, naming the known ones. Maps (env, pool.mix)
    are updated key by key, so `--set pool.mix.random=0.2` keeps the other weights."""
    if not isinstance(given, dict):
        raise ConfigError(f"config {where or 'file'} must be a mapping, got {given!r}")
    out = copy.deepcopy(base)
    for key, value in given.items():
        path = f"{where}.{key}" if where else str(key)
        if where == "" and key not in TOP_LEVEL:
            raise ConfigError(f"unknown config key {path!r}; known top-level keys: {list(TOP_LEVEL)}")
        if where and key not in SCHEMA[where]:
            raise ConfigError(f"unknown config key {path!r}; known keys in {where!r}: {sorted(SCHEMA[where])}")
        if key in SCHEMA and where == "":
            out[key] = merge(out[key], value, key)
        elif isinstance(out.get(key), dict):
            if not isinstance(value, dict):
                raise ConfigError(f"config {path} must be a mapping, got {value!r}")
            out[key].update(copy.deepcopy(value))
        else:
            out[key] = copy.deepcopy(value)
    return out


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


def nest(parts: list[str], value: Any) -> dict[str, Any]:
    out: Any = value
    for p in reversed(parts):
        out = {p: out}
    return out


def validate(config: dict[str, Any]) -> dict[str, Any]:
    """Check every value; also build the game's config once, so a bad game option fails now."""
    game = config.get("game")
    if game not in corruption_envs.GAMES:
        raise ConfigError(f"config game={game!r} is not allowed; choose one of {list(corruption_envs.GAMES)}")
    for section, keys in SCHEMA.items():
        for k, key in keys.items():
            key.validate(f"{section}.{k}", config[section][k])
    if "num_players" in config["env"]:
        raise ConfigError("config env.num_players is not allowed; set run.players: [min, max] instead")
    rules = get_game(game).rules
    lo, hi = config["run"]["players"]
    if not rules.min_players <= lo <= hi <= rules.max_players:
        raise ConfigError(
            f"config run.players={[lo, hi]} is not allowed; {game} takes "
            f"{rules.min_players} to {rules.max_players} players"
        )
    if not rules.min_players <= config["eval"]["num_players"] <= rules.max_players:
        raise ConfigError(
            f"config eval.num_players={config['eval']['num_players']} is not allowed; {game} takes "
            f"{rules.min_players} to {rules.max_players} players"
        )
    try:
        rules.make_config(**config["env"])
    except ValueError as e:
        raise ConfigError(f"config env: {e}") from None
    check_bots(config)
    stray = [b for b in config["eval"]["reverse"] if b not in config["eval"]["baselines"]]
    if stray:
        raise ConfigError(f"config eval.reverse entries {stray} are not allowed: each must be one of "
                          f"eval.baselines {config['eval']['baselines']}")
    # one policy serves every player count only where the spaces do not depend on it (Corruptia's
    # action layout grows with its board, so it trains at one count)
    counts = sorted({*range(lo, hi + 1), config["eval"]["num_players"]})
    sizes = {}
    for n in counts:
        game_rules = rules(rules.make_config(num_players=n, **config["env"]))
        sizes[n] = (game_rules.observation_layout.size, game_rules.num_actions)
    if len(set(sizes.values())) > 1:
        raise ConfigError(
            f"config run.players={[lo, hi]} with eval.num_players={config['eval']['num_players']} is not "
            f"allowed for {game}: its (observation, action) sizes differ by player count {sizes}; "
            "train and evaluate at one player count"
        )
    ppo = config["ppo"]
    if ppo["reward_baseline"] != "none" and config["imitation"]["games"]:
        raise ConfigError(
            f"config ppo.reward_baseline={ppo['reward_baseline']!r} with imitation.games="
            f"{config['imitation']['games']} is not allowed: the warm start fits the critic to raw rewards, "
            "but duplicate play pays differences; set imitation.games=0"
        )
    teacher = config["imitation"]["teacher"]
    if ppo["prior"] != "none" and config["imitation"]["games"] and teacher != ppo["prior"]:
        raise ConfigError(
            f"config imitation.teacher={teacher!r} with ppo.prior={ppo['prior']!r} is not allowed: a policy "
            f"with a prior already plays the prior's moves and the warm start fits its critic on the prior's "
            f"games; set imitation.teacher={ppo['prior']!r}"
        )
    if config["run"]["vec_env"] == "batched":
        check_batched(config)
    if ppo["critic"] == "privileged":
        check_privileged(config)
    if (config["run"]["n_envs"] * ppo["n_steps"]) % ppo["batch_size"]:
        raise ConfigError(
            f"config ppo.batch_size={ppo['batch_size']} must divide run.n_envs * ppo.n_steps = "
            f"{config['run']['n_envs'] * ppo['n_steps']}"
        )
    return config


def check_bots(config: dict[str, Any]) -> None:
    """Every bot the config names (opponents, baselines, the teacher) exists for its game."""
    named = [(f"{mix} key {k!r}", k) for mix in ("pool.mix", "psro.mix")
             for k in config[mix.split(".")[0]]["mix"] if k != "self"]
    named += [(f"eval.baselines entry {b!r}", b) for b in config["eval"]["baselines"]]
    named.append((f"imitation.teacher={config['imitation']['teacher']!r}", config["imitation"]["teacher"]))
    if config["ppo"]["prior"] != "none":
        named.append((f"ppo.prior={config['ppo']['prior']!r}", config["ppo"]["prior"]))
    probe = corruption_envs.env(config["game"], num_players=config["eval"]["num_players"], **config["env"])
    for where, spec in named:
        try:
            make_agent(spec, probe, seed=0)
        except ValueError as e:
            raise ConfigError(f"config {where} is not allowed: {e}") from None


def check_batched(config: dict[str, Any]) -> None:
    """run.vec_env=batched plays every opponent on a batch: no duplicate play (it replays each deal with
    the heuristic first) and no search bot (it plans on one AEC game)."""
    if config["ppo"]["reward_baseline"] != "none":
        raise ConfigError(
            f"config run.vec_env=batched with ppo.reward_baseline={config['ppo']['reward_baseline']!r} is not "
            "allowed: duplicate play replays every deal game by game; set run.vec_env=dummy"
        )
    searches = [k for k in config["pool"]["mix"] if is_search_spec(k)]
    if searches:
        raise ConfigError(
            f"config run.vec_env=batched with search bots {searches} in pool.mix is not allowed: a search "
            "plans on one AEC game; set run.vec_env=dummy"
        )


def check_privileged(config: dict[str, Any]) -> None:
    """A privileged critic reads every seat's information from the batched engine, where it has any."""
    if config["run"]["vec_env"] != "batched":
        raise ConfigError(f"config ppo.critic='privileged' with run.vec_env={config['run']['vec_env']!r} is not "
                          "allowed: every seat's information comes from the batched engine; set run.vec_env=batched")
    game = config["game"]
    if game not in vector.list_games() or not vector.engine_class(game).privileged_size:
        raise ConfigError(f"config ppo.critic='privileged' is not allowed for {game}: its batched engine writes "
                          "no privileged features; set ppo.critic='own'")


# what a run plays besides learning, scaled down with a shorter run (scale_to_timesteps)
SCALED_GAMES = ("imitation.games", "eval.games", "eval.final_games", "eval.count_games", "eval.select_games")
MIN_GAMES = 20  # a scaled figure keeps at least this many games (where the config plays any)


def scale_to_timesteps(config: dict[str, Any], planned: int, kept: set[str]) -> dict[str, Any]:
    """`config` for a run of fewer learner steps than the `planned` ones of its file (--timesteps): its
    imitation and evaluation games shrink by the same fraction (at least MIN_GAMES), so a smoke run is
    quick; the keys in `kept` (given with --set) stay as given."""
    fraction = config["run"]["timesteps"] / planned
    if fraction >= 1:
        return config
    for dotted in SCALED_GAMES:
        section, key = dotted.split(".")
        value = config[section][key]
        if dotted not in kept and value:
            config[section][key] = min(value, max(MIN_GAMES, round(value * fraction)))
    return config


def plan(config: dict[str, Any], backend: str = "sb3") -> str:
    """One line on what the run will play, printed before it starts (RLlib's loop trains no exploiters)."""
    run, im, ev, pool = config["run"], config["imitation"], config["eval"], config["pool"]
    lo, hi = run["players"]
    others = sorted(set(range(lo, hi + 1)) - {ev["num_players"]})
    parts = [f"{run['timesteps']:,} learner steps at {lo}-{hi} players"]
    if im["games"]:
        parts.insert(0, f"{im['games']:,} {im['teacher']} games to imitate")
    exploiters = run["timesteps"] // pool["exploiter_every"] if pool["exploiter_every"] else 0
    if exploiters and backend == "rllib":
        parts.append("no exploiters (pool.exploiter_every is the SB3 loop's)")
    elif exploiters:
        parts.append(f"{exploiters} exploiter(s) of {pool['exploiter_steps']:,} steps (one every "
                     f"{pool['exploiter_every']:,})")
    table = f"{ev['final_games']:,} games per baseline at {ev['num_players']} players"
    if others:
        table += f" and {ev['count_games']:,} at each of {others}"
    parts.append(f"a final table of {table} against {', '.join(map(str, ev['baselines']))}, and one of each "
                 f"against copies of the policy at {ev['num_players']} players")
    return "plan: " + "; ".join(parts)


def bot_option(config: dict[str, Any], key: str) -> str | None:
    """A `ppo` key naming a bot ('prior', 'reward_baseline'), or None for 'none'."""
    return None if config["ppo"][key] == "none" else config["ppo"][key]


def default_config_path(game: str) -> Path:
    """configs/<game>.yaml, the game's committed training config."""
    return Path(__file__).resolve().parent.parent / "configs" / f"{game}.yaml"


def load(
    game: str | None = None, path: str | Path | None = None, sets: list[str] = (), **overrides: Any
) -> dict[str, Any]:
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
        config = merge(config, nest(*parse_set(item)))
    for dotted, value in overrides.items():
        if value is not None:
            config = merge(config, nest(dotted.split("."), value))
    if game is not None and config["game"] != game:
        raise ConfigError(f"--set game={config['game']} contradicts --game {game}; give the game once")
    return validate(with_game_defaults(config))


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


def with_game_defaults(config: dict[str, Any]) -> dict[str, Any]:
    """Player counts left unset take the game's default count (always within its range)."""
    if config.get("game") in corruption_envs.GAMES:
        n = get_game(config["game"]).rules.default_players
        if config["run"]["players"] is None:
            config["run"]["players"] = [n, n]
        if config["eval"]["num_players"] is None:
            config["eval"]["num_players"] = n
    return config
