"""The replay page in a real browser: Debian's headless Chromium opens it from file://, steps through
the game by URL hash, keys and buttons, and the DOM shows what the page's data says for each move and
view; the page fits windows of three sizes without scrolling sideways; a screenshot is not blank.

Not part of the default `python -m pytest` (pyproject's norecursedirs); run it with
`apt-get install -y chromium && python -m pytest tests/browser`. Without Chromium it fails.
"""
from __future__ import annotations

import io
import json

import pytest
from PIL import Image

import corruption_envs
from corruption_envs import play
from corruption_envs.bots import make_agent
from corruption_envs.core.picture import seat_colour
from corruption_envs.recording import record_game

from .chromium import Browser, chromium_path

READY = "!!document.getElementById('caption') && document.getElementById('caption').textContent !== ''"
PICTURE_LOADED = "[...document.querySelectorAll('#picture img')].every(i => i.complete && i.naturalWidth)"


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """(file URL, page data) of a recorded 4-player Corruption game between heuristic bots."""
    chromium_path()  # fail at once, naming the install, when there is no browser
    folder = tmp_path_factory.mktemp("page")
    env = corruption_envs.env("corruption", num_players=4, record_events=True)
    agents = [make_agent("heuristic", env, seed=p) for p in range(4)]
    record_game(env, agents, 5, folder / "game.jsonl", "corruption", ["heuristic"] * 4)
    html = folder / "game.html"
    assert play.main(["--replay", str(folder / "game.jsonl"), "--html", str(html)]) == 0
    text = html.read_text(encoding="utf-8")
    start = text.index('id="data">') + len('id="data">')
    data = json.loads(text[start:text.index("</script>", start)].replace("<\\/", "</"))
    return html.as_uri(), data


@pytest.fixture
def browser():
    opened = []

    def open_page(url, **options):
        opened.append(Browser(url, READY, **options))
        return opened[-1]

    yield open_page
    for b in opened:
        b.close()


def shown(b):
    """What the page shows now: position, caption, events, view, and its picture's images."""
    return b.js("""({
        position: document.getElementById('position').textContent,
        caption: document.getElementById('caption').textContent,
        events: [...document.querySelectorAll('#events li')].map(li => li.textContent),
        view: document.getElementById('view').value,
        hash: location.hash,
        images: [...document.querySelectorAll('#picture img')].map(i => [i.complete, i.naturalWidth]),
        current: [...document.querySelectorAll('#moves li')].findIndex(li => li.className === 'current'),
        moves: document.querySelectorAll('#moves li').length,
    })""")


def expect(data, view, move):
    frame = data["frames"][view][move]
    last = len(data["frames"][view]) - 1
    return {"position": f"move {move} / {last}", "caption": f"Move {move}: {frame['caption']}",
            "events": frame["events"] or ["(none you could see)"], "view": view,
            "hash": f"#move={move}&seat={view.replace('player_', '')}", "current": move,
            "moves": last + 1, "images": [[True, 1200]] * len(frame["picture"])}


def test_the_url_hash_opens_a_move_in_a_seats_view(page, browser):
    url, data = page
    b = browser(url + "#move=12&seat=1")
    assert shown(b) == expect(data, "player_1", 12)
    # the seat's view names only its own moves; everything names them all
    assert "player_1 moved" not in [f["caption"] for f in data["frames"]["player_1"]]
    b.js("location.hash = '#move=30&seat=all'")
    b.wait_until("document.getElementById('position').textContent.startsWith('move 30 ')")
    assert shown(b) == expect(data, "all", 30)


def test_keys_and_buttons_step_through_the_game_and_switch_views(page, browser):
    url, data = page
    b = browser(url)
    assert shown(b) == expect(data, "all", 0)
    for _ in range(3):
        b.press("ArrowRight")
    assert shown(b) == expect(data, "all", 3)
    b.press("2")
    assert shown(b) == expect(data, "player_2", 3)
    b.press("ArrowLeft")
    assert shown(b) == expect(data, "player_2", 2)
    b.press("End")
    last = len(data["frames"]["player_2"]) - 1
    assert shown(b) == expect(data, "player_2", last)
    b.js("document.getElementById('next').click()")  # past the end: stays on the last move
    assert shown(b) == expect(data, "player_2", last)
    b.press("Home")
    b.press("a")
    b.js("document.getElementById('next').click()")
    assert shown(b) == expect(data, "all", 1)
    b.js("document.querySelectorAll('#moves li')[20].click()")
    assert shown(b) == expect(data, "all", 20)


def test_a_screenshot_shows_the_table(page, browser):
    url, _ = page
    b = browser(url + "#move=40&seat=0")
    b.wait_until(PICTURE_LOADED)
    shot = Image.open(io.BytesIO(b.screenshot())).convert("RGB")
    assert shot.width == 1600 and shot.height > 600
    colours = shot.getcolors(maxcolors=1 << 20)
    assert len(colours) > 100, "the screenshot is nearly blank"
    counts = {rgb: k for k, rgb in colours}
    for seat in range(4):  # every seat's panel is drawn in its colour
        assert counts.get(seat_colour(seat), 0) > 500


def layout(b):
    """Where the page puts things: the window's size, the page's scroll and client widths, the move
    list's and the picture's boxes (left, top, right, bottom), and the picture's size shown and its own
    (its bands' width and summed height)."""
    return b.js("""(() => {
        const box = el => {
            const r = el.getBoundingClientRect();
            return [r.left, r.top, r.right, r.bottom];
        };
        const bands = [...document.querySelectorAll('#picture img')];
        const page = document.documentElement;
        return {window: [innerWidth, innerHeight], scroll: page.scrollWidth, client: page.clientWidth,
                moves: box(document.getElementById('moves')), picture: box(bands[0].parentElement),
                natural: [bands[0].naturalWidth, bands.reduce((h, i) => h + i.naturalHeight, 0)],
                shown: [bands[0].getBoundingClientRect().width,
                        bands.reduce((h, i) => h + i.getBoundingClientRect().height, 0)]};
    })()""")


@pytest.mark.parametrize("window, beside", [((1400, 1000), True), ((900, 700), True), ((600, 800), False)])
def test_the_page_fits_its_window_with_the_picture_scaled_down(page, browser, window, beside):
    url, _ = page
    b = browser(url + "#move=40&seat=0", window=window)
    b.wait_until(PICTURE_LOADED)
    fit = layout(b)
    assert fit["window"][0] == window[0]  # (its height less the headless window's frame)
    assert fit["scroll"] <= fit["client"], "the page scrolls sideways"
    left, top, right, bottom = fit["moves"]
    assert 0 <= left and right <= fit["client"], "the move list is cut at the window's edge"
    width, height = fit["shown"]
    assert width < fit["natural"][0] and width <= fit["client"]
    assert height / width == pytest.approx(fit["natural"][1] / fit["natural"][0], rel=0.01)  # not stretched
    if beside:  # the list fills the window's height, the page does not scroll
        assert fit["picture"][2] < left and top < fit["picture"][3] and bottom <= fit["window"][1]
    else:
        assert top > fit["picture"][3]
    b.press("End")  # the list scrolls to the last move; the page stays where it is
    assert b.js("""(() => {
        const list = document.getElementById('moves').getBoundingClientRect();
        const last = document.querySelector('#moves li.current').getBoundingClientRect();
        return scrollY === 0 && list.top <= last.top && last.bottom <= list.bottom;
    })()""")


def test_without_chromium_the_browser_tests_fail_naming_the_install(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(AssertionError, match="apt-get install -y chromium"):
        chromium_path()
