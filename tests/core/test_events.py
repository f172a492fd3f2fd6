"""core.EventLog and the adapter's events_for / public_events, on the toy game with events."""
from __future__ import annotations

import numpy as np
import pytest

from corruption_envs.core import EVERYONE, EventLog
from tests.play.eventful_toy import EventfulToyEnv


def test_a_seat_reads_the_public_events_and_its_own_in_order():
    log = EventLog()
    log.say(0, "zero's secret")
    log.say(EVERYONE, "news")
    log.say(1, "one's secret")
    assert log.visible_to(0) == ["zero's secret", "news"]
    assert log.visible_to(1) == ["news", "one's secret"]
    assert log.visible_to(EVERYONE) == ["news"]
    assert log.visible_to(None) == ["zero's secret", "news", "one's secret"]
    assert log.seen_by(1) == EventLog([(EVERYONE, "news"), (1, "one's secret")])


def test_a_copy_is_independent():
    log = EventLog([(EVERYONE, "a")])
    copy = log.copy()
    copy.say(EVERYONE, "b")
    assert len(log) == 1 and len(copy) == 2


def test_events_are_kept_only_when_the_config_asks():
    assert EventLog.for_config({"record_events": False}) is None
    assert EventLog.for_config({"record_events": True}) == EventLog()


def test_the_env_gives_each_agent_its_events_and_resampling_keeps_them():
    env = EventfulToyEnv(num_players=3, record_events=True)
    env.reset(seed=4)
    env.step(1)
    cards = env.game_state.cards
    assert env.events_for("player_1") == [f"player_1: you hold card {cards[1]}", "player_0 raises"]
    assert env.public_events() == ["player_0 raises"]
    assert len(env.events_for(None)) == 4  # three private deals and the move
    for seed in range(5):
        other = env.resample_hidden("player_1", seed=seed)
        assert other.events_for("player_1") == env.events_for("player_1")
        assert other.events_for(None) == env.events_for("player_1")  # no other seat's secret is kept
    with pytest.raises(ValueError, match="unknown agent 'player_9'"):
        env.events_for("player_9")


def test_an_env_without_events_reads_none():
    env = EventfulToyEnv(num_players=2)
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env.action_mask())[0]))
    assert env.events_for("player_0") == [] and env.public_events() == []
