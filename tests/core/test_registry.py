"""The registry and the one resolver of strings that name code."""
import pytest

import corruption_envs
from corruption_envs.bots import SPECS, make_agent
from corruption_envs.registry import env_class, import_attr, make_env, rules_class
from tests.benchmarks.toy_agents import TOY, RaiseAgent
from tests.core.toy import ToyEnv, ToyRules
from tests.toy_game import registered


def test_a_registered_game_is_playable_by_name_until_unregistered():
    with registered() as name:
        assert name in corruption_envs.list_games()
        assert corruption_envs.env(name, num_players=3).rules.num_players == 3
        assert rules_class(name).name == "toy"
    assert name not in corruption_envs.GAMES
    with pytest.raises(ValueError, match="unknown game 'toy'; choose one of"):
        corruption_envs.env("toy")


def test_register_refuses_a_bad_name_and_a_taken_one_and_unregister_an_unknown_one():
    with pytest.raises(ValueError, match="must be an identifier"):
        corruption_envs.register("my game", "tests.training.toygame")
    with pytest.raises(ValueError, match="already registered to corruption_envs.corruption; pick another name"):
        corruption_envs.register("corruption", "tests.training.toygame")
    with pytest.raises(ValueError, match="game 'chess' is not registered; registered games: \\['corruption'"):
        corruption_envs.unregister("chess")
    assert list(corruption_envs.GAMES) == ["corruption", "corruptia", "construction"]


def test_module_attr_specs_resolve_to_the_named_class_and_bad_ones_say_the_form():
    assert import_attr(TOY) is ToyEnv and env_class(TOY) is ToyEnv and rules_class(TOY) is ToyRules
    assert isinstance(make_env(TOY, num_players=2), ToyEnv)
    with pytest.raises(ValueError, match="is not of the form 'module:attr'"):
        import_attr("tests.core.toy:")
    with pytest.raises(ModuleNotFoundError):
        import_attr("no_such_module:Thing")


def test_agent_specs_import_code_only_when_a_person_typed_them():
    env = ToyEnv(num_players=2)
    spec = "tests.benchmarks.toy_agents:RaiseAgent"
    assert isinstance(make_agent(spec, env, seed=0, allow_code=True), RaiseAgent)
    with pytest.raises(ValueError, match=f"unknown agent '{spec}'") as e:
        make_agent(spec, env, seed=0)  # e.g. a spec read from a file: never imported
    assert str(e.value).endswith(f"use {SPECS}")
