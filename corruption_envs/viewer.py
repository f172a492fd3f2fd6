"""A logged game as one self-contained HTML page to step through move by move.

    python -m corruption_envs.play --replay game.jsonl --html game.html [--html-views all 0 2]

The page has no outside reference (inline CSS, JS and PNG data URIs), so it works offline from file://.
It offers one view per seat (that seat's information set) and one of everything; `--html-views` keeps
only some, e.g. `--html-views 1` gives a page that is safe to hand to player_1. Everything a view
shows is computed here, in Python, from that seat's information set (`seat_frame`): its picture, the
events it may see and the moves as it saw them (others' moves by who made them and their public
events). Nothing hidden from a seat is in its view's data.

Keys: Left/Right (or j/k) step, Home/End jump, a = everything, 0-9 = that seat. The URL hash
`#move=12&seat=1` (or `seat=all`) opens a given move and view and follows navigation.
"""
from __future__ import annotations

import base64
import hashlib
import html
import json
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from .core import GameEnv, Rules
from .core.picture import png_bytes, require_pillow

ALL = "all"


class LogMismatch(ValueError):
    """The log's moves do not replay in the game it names."""


def draws_pictures(env: GameEnv) -> bool:
    """Whether the game's rules draw pictures (a game outside the registry may offer text only)."""
    return type(env.rules).picture is not Rules.picture


def seat_frame(env: GameEnv, seat: int | None) -> tuple[np.ndarray | None, list[str]]:
    """What `seat` (None: everything) sees of the current position: its picture (None if the game
    draws none) and the events so far.

    A function of the seat's information set only (tests/test_pictures.py resamples the rest)."""
    agent = None if seat is None else env.possible_agents[seat]
    picture = env.picture_for(agent) if draws_pictures(env) else None
    return picture, env.events_for(agent)


def move_caption(agent: str, name: str, seat: int | None, env: GameEnv) -> str:
    """A move as `seat` saw it: its own moves (and all, for everything) by name, others' by who moved."""
    if seat is None or env.agent_name_mapping[agent] == seat:
        return f"{agent}: {name}"
    return f"{agent} moved"


def replay_positions(env: GameEnv, seed: int, actions: Sequence[dict[str, Any]]) -> Any:
    """Reset `env` with `seed` and yield (move number, record or None) at each position of the log:
    0 before the first move, k after the k-th. Raises LogMismatch at a move that is not legal."""
    env.reset(seed=seed)
    yield 0, None
    for k, rec in enumerate(actions, 1):
        if any(env.terminations.values()):
            raise LogMismatch(f"move {k}: the log goes on after the game ended")
        index, mask = rec["index"], env.action_mask()
        if rec["agent"] != env.agent_selection or not (
            isinstance(index, int) and 0 <= index < len(mask) and mask[index]
        ):
            raise LogMismatch(f"move {k} ({rec['agent']}: {rec['name']!r}) is not legal in the replayed "
                              f"game; is the log from another version of the game?")
        env.step(index)
        yield k, rec


def build_page_data(env: GameEnv, header: dict[str, Any], actions: Sequence[dict[str, Any]],
                    views: Sequence[int | None]) -> dict[str, Any]:
    """The page's data: per view, per position, its caption, new events and picture bands."""
    if draws_pictures(env):
        require_pillow()
    strips = Strips()
    frames: dict[str, list[dict[str, Any]]] = {key(v): [] for v in views}
    seen = {key(v): 0 for v in views}
    for k, rec in replay_positions(env, header["seed"], actions):
        for v in views:
            picture, events = seat_frame(env, v)
            caption = "start" if rec is None else move_caption(rec["agent"], rec["name"], v, env)
            frames[key(v)].append({"caption": caption, "events": events[seen[key(v)]:],
                                   "picture": [] if picture is None else strips.add(picture)})
            seen[key(v)] = len(events)
    title = (f"{header.get('env', header['game'])}, {header['players']} players, seed {header['seed']}: "
             + ", ".join(f"{a} ({spec})" for a, spec in header["seats"].items()))
    return {"title": title, "views": [{"key": key(v), "label": label(v)} for v in views],
            "strips": strips.uris, "frames": frames}


class Strips:
    """Pictures cut into bands of STRIP rows, each band stored once: consecutive positions share most
    of their picture (panels, hands, empty board), so a page holds a fraction of the pixels."""

    STRIP = 16

    def __init__(self) -> None:
        self.uris: list[str] = []
        self.index: dict[tuple[int, bytes], int] = {}

    def add(self, picture: np.ndarray) -> list[int]:
        """The indices of `picture`'s bands in `uris` (PNG data URIs), encoding only new bands."""
        out = []
        for top in range(0, picture.shape[0], self.STRIP):
            band = np.ascontiguousarray(picture[top:top + self.STRIP])
            digest = band.shape[0], hashlib.sha1(band.tobytes()).digest()
            if digest not in self.index:
                self.index[digest] = len(self.uris)
                self.uris.append("data:image/png;base64," + base64.b64encode(png_bytes(band)).decode())
            out.append(self.index[digest])
        return out


def key(view: int | None) -> str:
    return ALL if view is None else f"player_{view}"


def label(view: int | None) -> str:
    return "everything" if view is None else f"player_{view}'s view"


def parse_views(items: Sequence[str] | None, players: int) -> list[int | None]:
    """'all' and seat numbers (default: everything, then every seat); ValueError if one is bad."""
    if not items:
        return [None, *range(players)]
    views: list[int | None] = []
    for item in items:
        if item == ALL:
            view: int | None = None
        elif item.isdigit() and int(item) < players:
            view = int(item)
        else:
            raise ValueError(f"--html-views {item!r}: give 'all' or a seat number 0..{players - 1}")
        if view not in views:
            views.append(view)
    return views


def page(data: dict[str, Any]) -> str:
    """The whole HTML page around `data` (JSON in a script tag; '</' escaped so it cannot end it)."""
    blob = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    return TEMPLATE.replace("%TITLE%", html.escape(data["title"])).replace("%DATA%", blob)


def write_page(env: GameEnv, header: dict[str, Any], actions: Sequence[dict[str, Any]],
               path: str | Path, views: Sequence[int | None]) -> Path:
    """Replay the logged game in `env` and write its page to `path`."""
    path = Path(path)
    path.write_text(page(build_page_data(env, header, actions, views)), encoding="utf-8")
    return path


TEMPLATE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>%TITLE%</title>
<style>
/* the page is the window's size: the picture takes what the move list leaves beside it, up to its own
   1200 px (+ border), scaled with its aspect ratio; the list fills the window's height below the
   caption and events. In a narrow window the list goes below the picture and the page scrolls. */
html,body{height:100%}
body{font:14px system-ui,sans-serif;margin:0;background:#f6f2e8;color:#1e1e1e;
display:flex;flex-direction:column}
header{background:#282c34;color:#fff;padding:8px 12px}
header h1{font-size:16px;margin:0 0 6px}
#controls button,#controls select{font-size:14px;margin-right:4px}
main{flex:1 1 0;min-height:0;overflow:auto;display:grid;
grid-template-columns:minmax(0,1202px) minmax(300px,1fr);grid-template-rows:minmax(0,1fr);gap:12px;
padding:10px;box-sizing:border-box}
#right{min-width:0;display:flex;flex-direction:column;overflow-wrap:anywhere}
#picture{border:1px solid #999;background:#fff;line-height:0}
#picture img{display:block;width:100%;height:auto}
#moves{flex:1 1 0;min-height:160px;overflow:auto;background:#fff;border:1px solid #999;margin:0;
padding:0 0 0 40px}
#moves li{cursor:pointer}#moves li.current{background:#ffd700}
#caption{font-weight:bold;font-size:16px}
#right h3{margin:14px 0 6px}#events{margin:0}
@media (max-width:720px){
body{display:block}main{display:block;overflow:visible}#right{margin-top:12px}#moves{height:480px}
}
</style></head><body>
<header><h1>%TITLE%</h1><div id="controls">
<button id="first" title="Home">|&lt;</button><button id="prev" title="Left">&lt; prev</button>
<button id="next" title="Right">next &gt;</button><button id="last" title="End">&gt;|</button>
<span id="position"></span> &nbsp; view <select id="view"></select>
<small>keys: Left/Right, Home/End, a = everything, 0-9 = a seat</small></div></header>
<main><div id="left"><div id="picture"></div></div>
<div id="right"><div id="caption"></div><h3>Events of this move</h3><ul id="events"></ul>
<h3>Moves</h3><ol id="moves" start="0"></ol></div></main>
<script type="application/json" id="data">%DATA%</script>
<script>
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
const $ = id => document.getElementById(id);
let view = D.views[0].key, move = 0;
for (const v of D.views) { const o = document.createElement("option"); o.value = v.key; o.textContent = v.label; $("view").appendChild(o); }
function frames() { return D.frames[view]; }
function fill(list, items, cls) {
  list.replaceChildren(...items.map((t, i) => { const li = document.createElement("li"); li.textContent = t; if (cls) cls(li, i); return li; }));
}
function show() {
  const f = frames()[move];
  $("picture").replaceChildren(...f.picture.map(i => { const img = new Image(); img.src = D.strips[i]; img.alt = ""; return img; }));
  $("caption").textContent = "Move " + move + ": " + f.caption;
  $("position").textContent = "move " + move + " / " + (frames().length - 1);
  $("view").value = view;
  fill($("events"), f.events.length ? f.events : ["(none you could see)"]);
  fill($("moves"), frames().map(x => x.caption), (li, i) => { li.onclick = () => go(i); if (i === move) li.className = "current"; });
  keepInView($("moves"), $("moves").children[move]);
  const h = "#move=" + move + "&seat=" + view.replace("player_", "");
  if (location.hash !== h) history.replaceState(null, "", h);
}
function keepInView(list, item) {  // scrolls the list only (scrollIntoView would scroll the page too)
  const outer = list.getBoundingClientRect(), inner = item.getBoundingClientRect();
  if (inner.top < outer.top) list.scrollTop -= outer.top - inner.top;
  else if (inner.bottom > outer.bottom) list.scrollTop += inner.bottom - outer.bottom;
}
function go(m) { move = Math.max(0, Math.min(frames().length - 1, m)); show(); }
function pick(v) { if (D.frames[v]) { view = v; show(); } }
function fromHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  const s = p.get("seat"); if (s !== null) { const v = s === "all" ? "all" : "player_" + s; if (D.frames[v]) view = v; }
  const m = parseInt(p.get("move"), 10); if (!isNaN(m)) move = Math.max(0, Math.min(frames().length - 1, m));
  show();
}
$("first").onclick = () => go(0); $("prev").onclick = () => go(move - 1);
$("next").onclick = () => go(move + 1); $("last").onclick = () => go(frames().length - 1);
$("view").onchange = e => pick(e.target.value);
document.addEventListener("keydown", e => {
  if (e.target.tagName === "SELECT") return;
  const k = e.key;
  if (k === "ArrowRight" || k === "k") go(move + 1); else if (k === "ArrowLeft" || k === "j") go(move - 1);
  else if (k === "Home") go(0); else if (k === "End") go(frames().length - 1);
  else if (k === "a") pick("all"); else if (/^[0-9]$/.test(k)) pick("player_" + k); else return;
  e.preventDefault();
});
window.addEventListener("hashchange", fromHash);
fromHash();
</script></body></html>
"""
