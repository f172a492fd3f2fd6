"""The registry and the one resolver of strings that name code."""
import copy
import dataclasses

import pytest

import corruption_envs
from benchmarks.tournament.lookup import build_agent
from corruption_envs.bots import SPECS, make_agent
from corruption_envs.core import make_env_class
from corruption_envs.core.game import game_of
from corruption_envs.registry import env_class, import_attr, make_env, rules_class
from tests.benchmarks.toy_agents import TOY, RaiseAgent
from tests.core.toy import ToyEnv, ToyRules
from tests.toy_game import registered
from tests.training import toygame


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
        dataclasses.replace(toygame.GAME, name="my game")
    with pytest.raises(ValueError, match="'corruption' is already registered \\(Corruption .*\\); pick another name"):
        corruption_envs.register(dataclasses.replace(toygame.GAME, name="corruption"))
    with pytest.raises(TypeError, match="register takes a Game"):
        corruption_envs.register("tests.training.toygame")
    with pytest.raises(ValueError, match="game 'chess' is not registered; registered games: \\['corruption'"):
        corruption_envs.unregister("chess")
    assert list(corruption_envs.GAMES) == ["corruption", "corruptia", "construction"]


def test_a_game_description_holds_its_bots_engine_and_views():
    game = corruption_envs.get_game("corruption")
    assert corruption_envs.get_game(game) is game and game.players == range(3, 8)
    assert {game: "a key"}[game] == "a key" and dataclasses.replace(game) != game  # one object per game
    assert copy.deepcopy({"game": game})["game"] is game  # a copied config holds the same game
    assert game.bot_names == ("random", "heuristic", "expert") and game.views == ("observation", "text", "picture")
    env = game.env(num_players=4)
    assert type(game.bot("expert", env, seed=0)).__name__ == "ExpertAgent"
    with pytest.raises(ValueError, match="game 'corruption' has no greedy bot; its bots: \\['random'"):
        game.bot("greedy", env)
    with pytest.raises(ValueError, match="'random' is every game's bot already"):
        dataclasses.replace(toygame.GAME, bots={"random": toygame.HeuristicAgent})
    with pytest.raises(ValueError, match="game 'toy' has no compiled engine; use engine='reference'"):
        toygame.GAME.engine_class()
    assert toygame.GAME.views == ("observation", "text")


def test_an_env_finds_the_game_that_declared_its_class_and_an_undeclared_one_a_bare_description():
    assert game_of(corruption_envs.env("corruptia")) is corruption_envs.GAMES["corruptia"]
    assert game_of(toygame.raw_env(num_players=2)) is toygame.GAME  # declared, registered or not
    copy = dataclasses.replace(corruption_envs.GAMES["corruption"], bots={})
    assert copy.raw_env.game is corruption_envs.GAMES["corruption"]  # a copy does not take the class over
    assert game_of(type("Sub", (toygame.raw_env,), {})(num_players=2)) is toygame.GAME  # a subclass plays it
    undeclared = make_env_class(ToyRules, "undeclared")
    bare = game_of(undeclared(num_players=2))
    assert bare.name == "toy" and bare.raw_env is undeclared and bare.bot_names == ("random",)
    assert bare.engine is None and game_of(undeclared(num_players=2)) is bare


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
    assert isinstance(build_agent(spec, env, seed=0), RaiseAgent)
    with pytest.raises(ValueError, match=f"unknown agent '{spec}'") as e:
        make_agent(spec, env, seed=0)  # e.g. a spec read from a file: never imported
    assert str(e.value).endswith(f"use {SPECS}")
