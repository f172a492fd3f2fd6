"""core.ActionLayout (named action blocks) and core.Layout (named observation pieces) on their own."""
from __future__ import annotations

import pytest

from corruption_envs.core import ActionLayout, Layout


def small_layout() -> ActionLayout:
    acts = ActionLayout()
    acts.add("play", lambda state, card, seat: f"play {card} at seat {seat}" + (" now" if state else ""),
             card=3, seat=range(1, 3))
    acts.add("pair", lambda state, pair: f"pair {pair}", pair=((1, 2), (1, 3)))
    acts.add("pass", "pass")
    return acts


def test_blocks_follow_each_other_in_row_major_order():
    acts = small_layout()
    assert [(b.name, b.start, b.stop) for b in acts] == [("play", 0, 6), ("pair", 6, 8), ("pass", 8, 9)]
    assert acts.size == len(acts) == 9
    assert acts.encode("play", card=1, seat=2) == 3  # card-major: (1, 1) is 2, (1, 2) is 3
    assert acts.decode(7) == ("pair", {"pair": (1, 3)})
    assert acts["play"].indices[2, 1] == 4 and acts.encode("pass") == 8


def test_names_with_and_without_a_state():
    acts = small_layout()
    assert acts.name(0) == "play 0 at seat 1" and acts.name(0, state="live") == "play 0 at seat 1 now"
    assert acts.name(8) == "pass"


def test_decoded_fields_are_read_only():
    with pytest.raises(TypeError):
        small_layout().decode(0)[1]["card"] = 2


@pytest.mark.parametrize("call,problem", [
    (lambda a: a.encode("bet", card=0), "unknown action block 'bet'"),
    (lambda a: a.encode("play", card=0), r"takes the fields \['card', 'seat'\]"),
    (lambda a: a.encode("play", card=0, seat=0), r"seat=0 is not a value of action block 'play'; use one of \[1, 2\]"),
    (lambda a: a.decode(9), r"out of range \[0, 9\)"),
    (lambda a: a.decode(-1), r"out of range"),
    (lambda a: a.add("pass", "again"), "added twice"),
    (lambda a: a.add("bad", "x", seat=(1, 1)), "distinct values"),
])
def test_bad_input_is_named_and_changes_nothing(call, problem):
    acts = small_layout()
    with pytest.raises(ValueError, match=problem):
        call(acts)
    assert acts.size == 9 and list(acts.blocks) == ["play", "pair", "pass"]


def test_observation_layout_is_a_read_only_mapping():
    lay = Layout()
    lay.add("hand", 3)
    lay.add("board", (2, 2))
    assert dict(lay.items()) == {"hand": slice(0, 3), "board": slice(3, 7)}
    assert list(lay.keys()) == ["hand", "board"] and len(lay) == 2 and lay.size == 7
    assert "board" in lay and "deck" not in lay and lay.get("deck") is None
    with pytest.raises(TypeError):
        lay["deck"] = slice(7, 8)
