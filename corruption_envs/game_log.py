"""The terminal game's log: JSON lines written as the game goes, checked whole before a replay.

A log is plain data from anyone. Reading one imports and calls nothing it names: its game must be a
registered one (`corruption_envs.list_games()`; code adds others with `corruption_envs.register`), every
record must have its fields with their types, and its moves must replay legally to the logged result.
Anything else is a `LogError` naming the problem and the fix, before a single step is shown.

Format, one JSON object a line (each line flushed as the game goes, so a quit game replays too):
  {"type": "header", "game", "env", "players", "seed", "config", "seats": {agent: spec}, "human"}
  {"type": "action", "agent", "index", "name", "events": [public event texts it caused]}   per move
  {"type": "end", "scores", "ranks", "winners"}  or  {"type": "quit", "agent"}   last
"""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from .registry import get_game, list_games
from .core import GameEnv
from .core.rewards import winners

FIX = "replay a whole file written by `python -m corruption_envs.play --log FILE`"
TEXT, INT, OBJECT, LIST = "text", "an integer", "an object", "a list"
# record type -> (required fields, optional fields), each field -> the kind of JSON value it holds
FIELDS: dict[str, tuple[dict[str, str], dict[str, str]]] = {
    "header": ({"game": TEXT, "players": INT, "seed": INT, "config": OBJECT, "seats": OBJECT},
               {"env": TEXT, "human": TEXT}),
    "action": ({"agent": TEXT, "index": INT, "name": TEXT}, {"events": LIST}),
    "end": ({"scores": OBJECT, "ranks": OBJECT, "winners": LIST}, {}),
    "quit": ({"agent": TEXT}, {}),
}
SCALARS = (str, int, float, bool, type(None))  # what a config value may be


class LogError(ValueError):
    """A log that is not whole, well-formed and true to a registered game; the message names the fix."""


def plain(value: Any) -> Any:
    """JSON for numpy scalars and anything else a game may put in infos."""
    return value.item() if hasattr(value, "item") else str(value)


def game_over(env: GameEnv) -> bool:
    return any(env.terminations.values()) or any(env.truncations.values())


def results(env: GameEnv) -> dict[str, Any]:
    """Final scores, ranks and winners (lowest rank) read from the env's infos."""
    agents = env.possible_agents
    scores = {a: env.infos[a].get("score") for a in agents}
    ranks = {a: env.infos[a].get("rank") for a in agents}
    first = winners([math.inf if r is None else r for r in ranks.values()])
    return {"scores": scores, "ranks": ranks, "winners": [agents[i] for i in first]}


class GameLog:
    """Writes the game as JSON lines, one flushed line per record, so a quit game still replays."""

    def __init__(self, path: str, header: dict[str, Any]) -> None:
        self.file = open(path, "w", encoding="utf-8")
        self.write({"type": "header", **header})

    def write(self, record: dict[str, Any]) -> None:
        self.file.write(json.dumps(record, default=plain) + "\n")
        self.file.flush()

    def close(self) -> None:
        self.file.close()


# --- reading ---------------------------------------------------------------------------------------------
def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number a log holds")


def _records(path: str) -> list[tuple[int, dict[str, Any]]]:
    """(line number, record) of each non-blank line: UTF-8 JSON objects of a known type."""
    try:
        text = Path(path).read_bytes().decode("utf-8")
    except UnicodeDecodeError as e:
        raise LogError(f"{path} is not UTF-8 text (byte {e.object[e.start]:#04x} at offset {e.start}); "
                       f"{FIX}") from None
    records = []
    for n, line in enumerate(text.split("\n"), 1):  # JSON lines: split on newlines only
        if not line.strip():
            continue
        try:
            record = json.loads(line, parse_constant=_no_constant)
        except (ValueError, RecursionError) as e:  # ValueError: also NaN and ints too long to read
            raise LogError(f"{path} line {n} is not JSON ({e}); the file is cut short or not a log; "
                           f"{FIX}") from None
        kind = record.get("type") if isinstance(record, dict) else None
        if not (isinstance(kind, str) and kind in FIELDS):
            raise LogError(f"{path} line {n} is not a log record (an object whose type is one of "
                           f"{list(FIELDS)}); {FIX}")
        if not records and kind != "header":
            raise LogError(f"{path} does not start with a header line; is it a --log file? {FIX}")
        _check_fields(path, n, record)
        records.append((n, record))
    return records


def _is_kind(value: Any, kind: str) -> bool:
    if kind == TEXT:  # printable: a log's texts are shown on a terminal
        return isinstance(value, str) and value.isprintable()
    if kind == INT:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, dict if kind == OBJECT else list)


def _check_fields(path: str, n: int, record: dict[str, Any]) -> None:
    required, optional = FIELDS[record["type"]]
    missing = sorted(set(required) - set(record))
    if missing:
        raise LogError(f"{path} line {n}: the {record['type']} record lacks {missing}; {FIX}")
    for field, kind in {**required, **optional}.items():
        value = record.get(field)
        if field in record and not _is_kind(value, kind) and not (field == "human" and value is None):
            raise LogError(f"{path} line {n}: {record['type']} field {field!r} is {value!r:.80}, not "
                           f"{kind}{' of printable characters' if kind == TEXT else ''}; {FIX}")


def read_log(path: str) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any] | None]:
    """(header, action records, end record or None) of a well-formed log; LogError naming the line if
    a record is malformed, misplaced or missing (a log starts with its header and ends with end or quit)."""
    records = _records(path)
    if not records:
        raise LogError(f"{path} is empty; {FIX}")
    for n, record in records[1:]:
        kind = record["type"]
        if kind == "header" or (kind != "action" and n != records[-1][0]):
            raise LogError(f"{path} line {n}: the {kind} record may only be "
                           f"{'the first' if kind == 'header' else 'the last'} line; {FIX}")
    last_line, last = records[-1]
    if last["type"] not in ("end", "quit"):
        raise LogError(f"{path} ends without an end or quit record after line {last_line}: it is cut short "
                       f"(the game was interrupted or the file truncated); {FIX}")
    header = records[0][1]
    _check_header(path, header)
    actions = [r for _, r in records[1:-1]]
    return header, actions, last if last["type"] == "end" else None


def _check_header(path: str, header: dict[str, Any]) -> None:
    """What a header must hold before any game is built from it."""
    game = header["game"]
    if game not in list_games():
        raise LogError(
            f"{path} names game {game!r}, which is not registered; a log may name only a registered game "
            f"({', '.join(list_games())}); for a game of your own, call corruption_envs.register(Game(...)) "
            "in your code and replay with corruption_envs.play.main(['--replay', FILE])"
        )
    if header["seed"] < 0:
        raise LogError(f"{path}: the header's seed {header['seed']} is negative; a seed is an integer >= 0; "
                       f"{FIX}")
    bad = {k: v for k, v in header["config"].items() if not isinstance(v, SCALARS)}
    if bad:
        raise LogError(f"{path}: the header's config {bad!r:.120} holds values that are not a number, text, "
                       f"true/false or null; {FIX}")
    known = get_game(game).rules.all_options()
    unknown = sorted(set(header["config"]) - set(known))
    if unknown:
        raise LogError(f"{path}: the header's config has unknown key(s) {unknown!r:.120} for game {game!r}; "
                       f"known keys: {sorted(known)}")


def replay_env(path: str, header: dict[str, Any]) -> GameEnv:
    """The env of a checked header, reset with its seed; LogError if its config, players or seats do
    not fit the game."""
    try:
        env = get_game(header["game"]).env(**header["config"])
    except ValueError as e:
        raise LogError(f"{path}: the header's config does not fit game {header['game']!r}: {e}") from None
    agents = env.possible_agents
    if header["players"] != len(agents):
        raise LogError(f"{path}: the header says {header['players']} players, but its config makes a "
                       f"{len(agents)}-player game; {FIX}")
    seats = header["seats"]
    if sorted(seats) != sorted(agents) or not all(_is_kind(s, TEXT) for s in seats.values()):
        raise LogError(f"{path}: the header's seats {seats!r:.120} do not give a text spec for each of "
                       f"{agents}; {FIX}")
    if header.get("human") not in (None, *agents):
        raise LogError(f"{path}: the header's human {header['human']!r:.40} is not one of {agents}; {FIX}")
    env.reset(seed=header["seed"])
    return env


def check_moves(path: str, env: GameEnv, actions: list[dict[str, Any]], end: dict[str, Any] | None) -> None:
    """Play the logged moves on `env` (a copy: it is played on), raising LogError at the first that is
    not the agent's on turn or not legal, and unless the result is the logged one."""
    for k, rec in enumerate(actions, 1):
        if game_over(env):
            raise LogError(f"{path}: step {k} comes after the game ended; the log does not match this game; "
                           f"{FIX}")
        agent, index = env.agent_selection, rec["index"]
        if rec["agent"] != agent:
            raise LogError(f"{path}: step {k} is a move by {rec['agent']!r:.40}, but it is {agent}'s turn "
                           f"in the replayed game; {FIX}")
        mask = env.action_mask()
        if not (0 <= index < len(mask) and mask[index]):
            legal = [env.action_name(i) for i in range(len(mask)) if mask[i]]
            shown = ", ".join(legal[:8]) + (", ..." if len(legal) > 8 else "")
            raise LogError(f"{path}: step {k}: {agent}'s logged move {index} ({rec['name']!r:.60}) is not "
                           f"legal in the replayed game (legal: {shown}); the log was edited or written by "
                           "another version of the game")
        env.step(index)
    if end is None:
        return
    if not game_over(env):
        raise LogError(f"{path}: the log ends with a result before the game is over; {FIX}")
    res = json.loads(json.dumps(results(env), default=plain))
    if res != {k: end[k] for k in res}:
        raise LogError(f"{path}: the logged result {end!r:.200} differs from the replayed one {res}; the log "
                       "was edited or written by another version of the game")
