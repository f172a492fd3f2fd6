"""Config validation: unknown keys and bad values fail at start, naming the key and what is allowed."""
import pytest
import yaml

from tests.training import toygame
from training import config as cfg
from training.selfplay import main


def test_toy_config_resolves_with_defaults_filled_in(toy_config_file):
    c = cfg.load(None, toy_config_file)
    assert c.game == "toy" and c.run.n_envs == 2
    assert c.ppo.gamma == cfg.PPO.model_fields["gamma"].default  # not in the file: default


def test_set_overrides_dotted_keys_and_parses_yaml_values(toy_config_file):
    c = cfg.load(None, toy_config_file, ["ppo.learning_rate=1e-4", "run.players=[3, 4]", "env.reward=rank",
                                          "pool.mix.random=0.5"])
    assert c.ppo.learning_rate == 1e-4 and c.run.players == [3, 4]
    assert c.env == {"num_rounds": 2, "reward": "rank"}
    assert c.pool.mix == {"self": 0.5, "heuristic": 0.25, "random": 0.5}  # other weights kept


def test_a_map_written_whole_replaces_the_default_map(tmp_path, toy_config_file):
    # the toy file writes pool.mix whole; a file leaving out a default key does not get it back
    path = tmp_path / "mix.yaml"
    path.write_text(toy_config_file.read_text().replace("mix: {self: 0.5, heuristic: 0.25, random: 0.25}",
                                                        "mix: {self: 1.0}"))
    assert cfg.load(None, path).pool.mix == {"self": 1.0}
    assert cfg.load(None, toy_config_file, ["pool.mix={self: 2, random: 1}"]).pool.mix == {"self": 2, "random": 1}
    assert cfg.load(None, path, ["pool.mix.random=0.5"]).pool.mix == {"self": 1.0, "random": 0.5}


def test_a_resolved_config_round_trips_through_its_yaml(tmp_path):
    # what a run folder's config.yaml holds, and --resume reads back
    for game in ("corruption", "corruptia", "construction"):
        config = cfg.load(game, sets=["pool.mix.random=0.2", "ppo.prior_weight=4"])
        path = tmp_path / f"{game}.yaml"
        path.write_text(yaml.safe_dump(config.dump(), sort_keys=False))
        again = cfg.load(None, path)
        assert again == config and again.dump() == config.dump()
        assert type(again.ppo.prior_weight) is int  # a number stays as written


@pytest.mark.parametrize("item, message", [
    ("ppo.learning_rat=1e-4", r"unknown config key 'ppo.learning_rat'.*learning_rate"),
    ("trainer.x=1", r"unknown config key 'trainer'.*known top-level keys"),
    ("ppo.n_epochs=0", r"ppo.n_epochs=0 is not allowed; ppo.n_epochs must be an integer >= 1"),
    ("ppo.activation=gelu", r"ppo.activation='gelu'.*one of \['tanh', 'relu'\]"),
    ("run.players=[1, 9]", r"run.players=\[1, 9\] is not allowed; toy takes 2 to 4 players"),
    ("pool.mix.bogus=1", r"pool.mix=.*is not allowed.*'self' \(past snapshots\), a bot \('random', 'heuristic', 'expert'.* or a policy file"),
    ("pool.mix.expert=1", r"pool.mix key 'expert' is not allowed: game 'toy' has no expert bot \(corruption, corruptia and construction have"),
    ("pool.mix.ismcts:0=1", r"pool.mix key 'ismcts:0' is not allowed: .*simulations '0' must be a whole number >= 1"),
    ("eval.baselines=[random, expert]", r"eval.baselines entry 'expert' is not allowed: game 'toy' has no expert"),
    ("imitation.teacher=champion", r"imitation.teacher='champion' is not allowed; imitation.teacher must be a bot"),
    ("env.num_rounds=9", r"config env: config num_rounds=9 is not allowed; num_rounds must be an integer from 1 to 5"),
    ("env.colour=red", r"unknown config key\(s\) \['colour'\]"),
    ("env.num_players=3", r"env.num_players is not allowed; set run.players"),
    ("ppo.batch_size=100", r"batch_size=100 must divide run.n_envs \* ppo.n_steps = 128"),
    ("eval.baselines=[champion]", r"eval.baselines=\['champion'\] is not allowed"),
    ("ppo", r"--set 'ppo' must look like section.key=value"),
    ("ppo=3", r"config ppo must be a mapping, got 3"),
    ("run.seed=true", r"config run.seed=True is not allowed; run.seed must be an integer >= 0"),
    ("pool.mix={}", r"config pool.mix=\{\} is not allowed; pool.mix must be a map"),
])
def test_bad_keys_and_values_fail_at_start_naming_them(toy_config_file, item, message):
    with pytest.raises(cfg.ConfigError, match=message):
        cfg.load(None, toy_config_file, [item])


def test_opponents_baselines_and_teacher_may_be_any_bot_the_game_has():
    # a search opponent plays game by game (a batched rollout refuses it: test_batched_env.py)
    c = cfg.load("corruption", sets=["pool.mix.expert=0.3", "pool.mix.ismcts:20=0.1", "imitation.teacher=expert",
                                     "eval.baselines=[random, heuristic, expert]", "run.vec_env=dummy"])
    assert c.pool.mix["expert"] == 0.3 and c.pool.mix["ismcts:20"] == 0.1
    assert c.imitation.teacher == "expert" and c.eval.baselines[-1] == "expert"


def test_a_teacher_other_than_the_prior_is_refused(toy_config_file):
    with pytest.raises(cfg.ConfigError, match=r"imitation.teacher='random' with ppo.prior='heuristic' is not "
                                              r"allowed.*set imitation.teacher='heuristic'"):
        cfg.load(None, toy_config_file, ["ppo.prior=heuristic", "imitation.games=4", "imitation.teacher=random"])


def test_the_prior_is_a_rule_bot_of_the_game():
    assert cfg.load("construction", sets=["ppo.prior=adaptive", "imitation.teacher=adaptive"]).ppo.prior == "adaptive"
    with pytest.raises(cfg.ConfigError, match=r"ppo.prior='ismcts:10' is not allowed; ppo.prior must be 'none' or a "
                                              r"rule bot"):
        cfg.load("construction", sets=["ppo.prior=ismcts:10"])
    with pytest.raises(cfg.ConfigError, match=r"ppo.prior='adaptive' is not allowed: game 'corruption' has no "
                                              r"adaptive bot"):
        cfg.load("corruption", sets=["ppo.prior=adaptive", "imitation.games=0"])


def test_unknown_game_names_the_known_ones(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("game: chess\n")
    with pytest.raises(cfg.ConfigError, match=r"game='chess' is not allowed; choose one of \['corruption'"):
        cfg.load(None, path)


def test_unknown_key_in_the_yaml_file_fails(tmp_path, toy_config_file):
    data = yaml.safe_load(toy_config_file.read_text())
    data["ppo"]["lerning_rate"] = 1.0
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(cfg.ConfigError, match="lerning_rate"):
        cfg.load(None, path)


def test_cli_reports_a_bad_value_and_exits_2_before_training(toy_config_file, tmp_path, capsys):
    code = main(["--config", str(toy_config_file), "--set", "ppo.gamma=2", "--out", str(tmp_path / "r")])
    assert code == 2
    assert "ppo.gamma=2 is not allowed; ppo.gamma must be a number in [0, 1]" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("game", ["corruption", "corruptia", "construction"])
def test_committed_default_configs_are_valid(game):
    import corruption_envs

    try:
        corruption_envs.get_game(game)
    except ValueError:
        pytest.skip(f"{game} is not implemented yet")
    c = cfg.load(game)
    assert c.game == game


def test_player_counts_with_different_spaces_are_refused_at_start(toy_config_file, monkeypatch):
    # a game whose action layout grew with the number of players: one policy could not serve 2 and 4
    class GrowingToyRules(toygame.MaskedToyRules):
        def __init__(self, config):
            super().__init__(config)
            self.num_actions = 2 + self.num_players

    monkeypatch.setattr(toygame.raw_env, "rules_class", GrowingToyRules)
    with pytest.raises(cfg.ConfigError, match=r"run.players=\[2, 4\].*sizes differ by player count"):
        cfg.load(None, toy_config_file)
    assert cfg.load(None, toy_config_file, ["run.players=[3,3]", "eval.num_players=3"]).run.players == [3, 3]


def test_corruptia_trains_over_its_whole_player_range():
    # one action and observation layout for 3-5 players (codec.BOARD)
    assert cfg.load("corruptia").run.players == [3, 5]


def test_a_shorter_run_plays_fewer_games_besides_learning_unless_told():
    from training.selfplay import parse_args, resolve

    config, _, _ = resolve(parse_args(["--game", "corruption", "--timesteps", "3000",
                                       "--set", "eval.count_games=7"]))
    full = cfg.load("corruption")
    assert config.run.timesteps == 3000
    assert config.imitation.games == cfg.MIN_GAMES < full.imitation.games  # 1% of 2,000, floored
    assert config.eval.final_games == cfg.MIN_GAMES and config.eval.count_games == 7  # --set kept
    assert cfg.plan(config).startswith(f"plan: {cfg.MIN_GAMES} expert games to imitate; 3,000 learner steps")
    unscaled, _, _ = resolve(parse_args(["--game", "corruption"]))
    assert unscaled.eval == full.eval and unscaled.imitation == full.imitation


def test_the_plan_counts_the_exploiters_a_run_trains():
    full = cfg.load("corruption")
    assert "4 exploiter(s) of 30,000 steps (one every 70,000)" in cfg.plan(full)
    assert "exploiter" not in cfg.plan(cfg.load("corruption", sets=["run.timesteps=64"]))
    assert "no exploiters" in cfg.plan(full, backend="rllib")  # RLlib's loop trains none: the plan says so
