"""Play a game in the terminal against bots.

    python -m corruption_envs.play --game corruption --players 4 --seat 0 --opponents heuristic

You see only your own seat's view: the table as your seat sees it, the events you may see since your
last move, and your legal moves as a numbered list. Type a move's number or an unambiguous part of its
name (case-insensitive); `?` shows the view again; `q` or end of input quits. `--seed` replays a game;
`--log FILE` writes it as JSON lines (format: `game_log.py`) that `--replay FILE` re-runs and shows
step by step: every move and the whole table, or with `--seat N` only what seat N saw (its own moves, the
events it may read and its view of the table); `--replay FILE --html PAGE` turns it into one HTML page to
step through in a browser (corruption_envs.viewer).

A replay rebuilds the env from the log's game and config, resets it with the seed and plays the logged
moves. The log is checked whole first (`game_log.py`): it may name only a registered game, and a log
that is malformed, cut short, or whose moves are not legal or do not give the logged result is refused
with one line and exit status 2, before any step is shown.

Games are named, never loaded from a module path: to play or replay a game of your own, register it in
code, `corruption_envs.register(my_package.my_game.GAME)`, then call
`corruption_envs.play.main([...])`.
"""
from __future__ import annotations

import argparse
import json
import secrets
import shutil
import sys
from typing import IO, Any

import numpy as np

from .registry import get_game, list_games
from .bots import make_agent
from .core import Agent, GameEnv
from .game_log import GameLog, LogError, check_moves, game_over, read_log, replay_env, results
from .viewer import parse_views, write_page

HUMAN = "human"
HELP = "type a move's number or part of its name, ? to see the table again, q to quit"


class Quit(Exception):
    """The player left: q, end of input or Ctrl-C."""


class UsageError(Exception):
    """A bad argument, config or opponent spec: reported in one line, exit status 2 (as a LogError is).

    Errors raised while a game runs are not caught: a traceback there points at a bug."""


class BotError(Exception):
    """A bot chose an illegal move: reported in one line, exit status 1."""


class Console:
    """Text in and out. On a terminal it reads with input() (line editing); otherwise it echoes each
    line it reads, so a scripted session's transcript shows what was typed."""

    def __init__(self, inp: IO[str] = sys.stdin, out: IO[str] = sys.stdout) -> None:
        self.inp, self.out = inp, out
        self.terminal = inp is sys.stdin and out is sys.stdout and inp.isatty()

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def ask(self, prompt: str) -> str:
        """One line of input without its newline; raises Quit at end of input or Ctrl-C."""
        try:
            if self.terminal:
                return input(prompt)
            self.out.write(prompt)
            self.out.flush()
            line = self.inp.readline()
        except (EOFError, KeyboardInterrupt):
            line = ""
        if not line:
            self.say()
            raise Quit
        line = line.rstrip("\r\n")
        self.say(line)
        return line


# --- building the game --------------------------------------------------------------------------------
def build_env(game: str, config: dict[str, Any]) -> GameEnv:
    """The env of a registered game."""
    if game not in list_games():
        raise UsageError(f"unknown or not installed game {game!r}; installed: {list_games()} (a game of "
                         "your own: corruption_envs.register(Game(...)) in code, then play.main)")
    try:
        return get_game(game).env(**config)
    except ValueError as e:  # a config key or value the game does not take
        raise UsageError(str(e)) from None


def parse_config(items: list[str]) -> dict[str, Any]:
    """KEY=VALUE pairs; a VALUE that reads as JSON (3, true, "x") is taken as such, else as text."""
    config: dict[str, Any] = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise UsageError(f"--config {item!r} is not KEY=VALUE (e.g. --config reward=rank)")
        try:
            config[key] = json.loads(value)
        except json.JSONDecodeError:
            config[key] = value
    return config


def seat_specs(opponents: list[str], players: int, seat: int) -> list[str]:
    """Per seat: HUMAN for `seat`, else that opponent's spec (one spec for all, or one per seat)."""
    specs = [s for item in opponents for s in item.split(",") if s]
    if len(specs) == 1:
        specs *= players - 1
    if len(specs) != players - 1:
        raise UsageError(
            f"--opponents takes one spec for all or {players - 1} (one per other seat, in seat "
            f"order); got {len(specs)}: {specs}"
        )
    specs.insert(seat, HUMAN)
    return specs


def bot_seed(seed: int, seat: int) -> int:
    """Each bot's own seed, fixed by the game's seed so `--seed` replays the bots too."""
    return int(np.random.SeedSequence([seed, seat]).generate_state(1)[0])


# --- what the human sees ------------------------------------------------------------------------------
def legal_moves(env: GameEnv) -> list[tuple[int, str]]:
    """(action index, name) of each legal move, in index order."""
    return [(int(i), env.action_name(i)) for i in np.flatnonzero(env.action_mask())]


def pick(text: str, moves: list[tuple[int, str]]) -> int:
    """The action `text` names: a list number, an exact name or an unambiguous part of one.

    Raises ValueError with a message for the player otherwise."""
    if text.isdigit():
        k = int(text)
        if 1 <= k <= len(moves):
            return moves[k - 1][0]
        raise ValueError(f"there is no move {k}: choose a number from 1 to {len(moves)}")
    low = text.lower()
    exact = [i for i, name in moves if name.lower() == low]
    if len(exact) == 1:
        return exact[0]
    hits = [(k, name) for k, (_, name) in enumerate(moves, 1) if low in name.lower()]
    if len(hits) == 1:
        return moves[hits[0][0] - 1][0]
    if not hits:
        raise ValueError(f"no legal move matches {text!r}: {HELP}")
    shown = ", ".join(f"{k}. {name}" for k, name in hits[:6]) + (", ..." if len(hits) > 6 else "")
    raise ValueError(
        f"{text!r} is ambiguous: it matches {len(hits)} moves ({shown}); type more of the name or "
        "the number"
    )


def label(agent: str, specs: list[str], env: GameEnv) -> str:
    spec = specs[env.agent_name_mapping[agent]]
    return f"{agent} (you)" if spec == HUMAN else f"{agent} ({spec})"


def show_view(con: Console, env: GameEnv, me: str, moves: list[tuple[int, str]]) -> None:
    con.say(f"--- your turn, {me} ---")
    con.say(env.render_for(me))
    con.say("Your moves:")
    for line in columns([f"{k:>3}. {name}" for k, (_, name) in enumerate(moves, 1)]):
        con.say(line)


def columns(cells: list[str], min_rows: int = 12) -> list[str]:
    """`cells` one per line, or in as many columns (numbered downwards) as the terminal fits once
    there are more than `min_rows`, so a long move list does not push the table off the screen."""
    if not cells:
        return []
    width = shutil.get_terminal_size((100, 24)).columns - 2
    for ncols in range(max(1, -(-len(cells) // min_rows)), 0, -1):
        rows = -(-len(cells) // ncols)
        cols = [cells[c:c + rows] for c in range(0, len(cells), rows)]
        widths = [max(map(len, col)) + 3 for col in cols]
        if sum(widths) - 3 <= width or ncols == 1:
            break
    return [
        "  " + "".join(col[r].ljust(w) for col, w in zip(cols, widths) if r < len(col)).rstrip()
        for r in range(rows)
    ]


def show_events(con: Console, texts: list[str], title: str) -> None:
    if texts:
        con.say(title)
        for text in texts:
            con.say(f"  {text}")


def show_results(con: Console, env: GameEnv, specs: list[str]) -> dict[str, Any]:
    res = results(env)
    con.say("=== Game over ===")
    con.say("Final scores:")
    for a in env.possible_agents:
        rank = res["ranks"][a]
        rank_text = f"{rank:g}" if isinstance(rank, (int, float)) else str(rank)
        con.say(f"  {label(a, specs, env):<28} score {res['scores'][a]!s:>5}   rank {rank_text}")
    winners = ", ".join(label(a, specs, env) for a in res["winners"])
    con.say(f"Winner{'s (shared)' if len(res['winners']) > 1 else ''}: {winners}")
    con.say("Everything revealed:")
    con.say(env.render_for(None))
    return res


# --- playing -------------------------------------------------------------------------------------------
def ask_move(con: Console, env: GameEnv, me: str) -> int:
    moves = legal_moves(env)
    show_view(con, env, me, moves)
    while True:
        text = con.ask(f"{me}> ").strip()
        if text.lower() in ("q", "quit", "exit"):
            raise Quit
        if text in ("?", "help"):
            show_view(con, env, me, moves)
            con.say(f"({HELP})")
            continue
        if not text:
            con.say(HELP)
            continue
        try:
            return pick(text, moves)
        except ValueError as e:
            con.say(str(e))


def setup(args: argparse.Namespace) -> tuple[GameEnv, dict[str, Any], list[str], int, dict[str, Agent]]:
    """The reset env, its config, each seat's spec, the seed and the bots, from the command line."""
    config = parse_config(args.config)
    if args.players is not None:
        config["num_players"] = args.players
    config["record_events"] = True
    env = build_env(args.game, config)
    players = len(env.possible_agents)
    config["num_players"] = players
    if not 0 <= args.seat < players:
        raise UsageError(f"--seat {args.seat} is not a seat of a {players}-player game (0..{players - 1})")
    specs = seat_specs(args.opponents, players, args.seat)
    seed = args.seed if args.seed is not None else secrets.randbelow(10**6)
    if seed < 0:
        raise UsageError(f"--seed {seed} is negative; a seed is an integer >= 0")
    env.reset(seed=seed)
    bots: dict[str, Agent] = {}
    for p, spec in enumerate(specs):
        if spec != HUMAN:
            try:
                bots[f"player_{p}"] = make_agent(spec, env, seed=bot_seed(seed, p))
            except Exception as e:  # whatever stops a bot being built is a usage error, not a crash
                raise UsageError(f"cannot build opponent {spec!r} for player_{p}: {e}") from None
    return env, config, specs, seed, bots


def play(args: argparse.Namespace, con: Console) -> int:
    env, config, specs, seed, bots = setup(args)
    players = len(specs)
    me = f"player_{args.seat}"
    seats = {a: specs[p] for p, a in enumerate(env.possible_agents)}
    name = env.metadata.get("name", args.game)
    con.say(f"{name}, {players} players, seed {seed} (same seed and moves replay this game)")
    con.say("Seats: " + ", ".join(label(a, specs, env) for a in env.possible_agents))
    con.say(f"({HELP})")
    log = None
    if args.log:
        log = GameLog(args.log, {"game": args.game, "env": name, "players": players, "seed": seed,
                                 "config": config, "seats": seats, "human": me})
    seen, moved = 0, False  # events already shown; whether the human has moved yet
    try:
        while not game_over(env):
            agent = env.agent_selection
            if agent == me:
                events = env.events_for(me)
                seen = min(seen, len(events))
                title = "Since your last move:" if moved else "So far:"
                show_events(con, events[seen:], title)
                seen = len(events)
                action = ask_move(con, env, me)
                moved = True
            else:
                obs = env.observe(agent)
                action = int(bots[agent].act(obs["observation"], obs["action_mask"]))
                if not (0 <= action < env.num_actions and env.action_mask()[action]):
                    raise BotError(f"{label(agent, specs, env)} chose the illegal action {action}")
            before = len(env.public_events())
            move = env.action_name(action)
            env.step(action)
            if log:
                public = env.public_events()[before:]
                log.write({"type": "action", "agent": agent, "index": action, "name": move,
                           "events": public})
        events = env.events_for(me)
        show_events(con, events[min(seen, len(events)):], "Last events:")
        res = show_results(con, env, specs)
        if log:
            log.write({"type": "end", **res})
    except Quit:
        con.say("You left the game before the end.")
        if log:
            log.write({"type": "quit", "agent": me})
    except (KeyboardInterrupt, BotError):
        if log:  # the game stopped here: the log still replays up to this point
            log.write({"type": "quit", "agent": me})
        raise
    finally:
        if log:
            log.close()
    return 0


def checked_log(path: str) -> tuple[dict[str, Any], list[dict[str, Any]], GameEnv]:
    """The log's header and moves and its reset env, once the whole log is checked (LogError otherwise)."""
    header, actions, end = read_log(path)
    env = replay_env(path, header)
    check_moves(path, env.clone(), actions, end)
    return header, actions, env


def replay(args: argparse.Namespace, con: Console) -> int:
    """Show a logged game step by step, once the whole log has been checked (LogError otherwise)."""
    header, actions, env = checked_log(args.replay)
    specs = [header["seats"][a] for a in env.possible_agents]
    viewer = args.seat  # None: every move and the whole table; else only what that seat saw
    if viewer is not None and not 0 <= viewer < len(specs):
        raise UsageError(
            f"--seat {viewer} is not a seat of this {len(specs)}-player game (0..{len(specs) - 1})"
        )
    pause = args.step or con.terminal
    seen_by = "everything" if viewer is None else f"as player_{viewer} saw it"
    con.say(f"Replay of {header.get('env', header['game'])}, {header['players']} players, "
            f"seed {header['seed']} ({seen_by}); "
            + ", ".join(label(a, specs, env) for a in env.possible_agents))
    seat_name = None if viewer is None else env.possible_agents[viewer]
    # what the replay shows: the public events, or all that the seat could read
    shown = env.public_events if viewer is None else (lambda: env.events_for(seat_name))
    for text in shown():  # the deal, before the first move
        con.say(f"      {text}")
    for k, rec in enumerate(actions, 1):
        agent, index = env.agent_selection, rec["index"]
        move = env.action_name(index)
        before = len(shown())
        env.step(index)
        # another seat's move is shown to a seat only through the events it may read
        named = viewer is None or env.agent_name_mapping[agent] == viewer
        con.say(f"{k:>4}. {label(agent, specs, env)}" + (f": {move}" if named else ""))
        if named and move != rec["name"]:
            con.say(f"      (the log names this move {rec['name']!r})")
        for text in shown()[before:]:
            con.say(f"      {text}")
        while pause and not game_over(env):
            try:
                answer = con.ask("[Enter] next step, ? the table, q quit: ").strip().lower()
            except Quit:
                return 0
            if answer == "q":
                return 0
            if answer != "?":
                break
            con.say(env.render_for(seat_name))
    if not game_over(env):
        con.say("The log ends before the game is over (the player left).")
        return 0
    show_results(con, env, specs)
    return 0


def write_html(args: argparse.Namespace, con: Console) -> int:
    """The logged game, checked whole as for a replay, as one HTML page (corruption_envs.viewer)."""
    header, actions, env = checked_log(args.replay)
    try:
        views = parse_views(args.html_views, len(env.possible_agents))
        path = write_page(env, header, actions, args.html, views)
    except (ImportError, ValueError) as e:  # no Pillow (the message names the extra), or a bad view
        raise UsageError(str(e)) from None
    con.say(f"wrote {path} ({len(actions)} moves)")
    return 0


# --- command line ----------------------------------------------------------------------------------------
def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m corruption_envs.play",
        description="Play a game in the terminal against bots, seeing only your own seat.",
        epilog=f"Registered games: {', '.join(list_games()) or 'none yet'}. In the game: {HELP}.",
    )
    p.add_argument("--game", default="corruption", help="a registered game")
    p.add_argument("--players", type=int, help="number of players (default: the game's)")
    p.add_argument("--seat", type=int,
                   help="your seat, 0-based (default 0); with --replay: show only what that seat saw "
                        "(default: every move and the whole table)")
    p.add_argument("--opponents", nargs="+", default=["heuristic"], metavar="SPEC",
                   help="random, heuristic, ismcts[:N], pimc[:N] or a policy file: one for all, or one per "
                        "other seat in seat order (default heuristic)")
    p.add_argument("--seed", type=int, help="seed of the game and the bots (default: a random one, shown)")
    p.add_argument("--config", action="append", default=[], metavar="KEY=VALUE",
                   help="a game config option, e.g. --config reward=rank (repeatable)")
    p.add_argument("--log", metavar="FILE", help="write the game as JSON lines to FILE")
    p.add_argument("--replay", metavar="FILE", help="show a logged game step by step")
    p.add_argument("--html", metavar="FILE",
                   help="with --replay: write the game as one self-contained HTML page to step through "
                        "(needs Pillow: pip install corruption-envs[render])")
    p.add_argument("--html-views", nargs="+", metavar="VIEW",
                   help="with --html: the views the page offers, 'all' and/or seat numbers "
                        "(default: everything and every seat)")
    p.add_argument("--step", action="store_true",
                   help="with --replay: wait for Enter after each step (default on a terminal)")
    return p


def main(argv: list[str] | None = None, con: Console | None = None) -> int:
    args = parser().parse_args(argv)
    con = con or Console()
    try:
        if (args.html or args.html_views) and not args.replay:
            raise UsageError("--html and --html-views go with --replay FILE (log a game with --log first)")
        if args.html:
            return write_html(args, con)
        if args.replay:
            return replay(args, con)
        args.seat = 0 if args.seat is None else args.seat
        return play(args, con)
    except (UsageError, LogError, OSError) as e:  # OSError: a log file that cannot be read or written
        print(f"error: {e}", file=sys.stderr)
        return 2
    except BotError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
