"""corruption_envs.integrations.rllib: the turn-based MultiAgentEnv and the action-masking module spec."""
import numpy as np
import pytest

pytest.importorskip("ray")

from corruption_envs.integrations.rllib import TurnBasedEnv, env_creator, rl_module_spec  # noqa: E402


def play(env, seed):
    rng = np.random.default_rng(seed)
    obs, infos = env.reset(seed=seed)
    moves, last = 0, None
    while True:
        assert len(obs) == 1  # only the agent on turn observes mid-game
        (agent, seen), = obs.items()
        assert env.observation_spaces[agent].contains(seen) and seen["action_mask"].any()
        last = agent
        obs, rewards, terminated, truncated, infos = env.step(
            {agent: int(rng.choice(np.flatnonzero(seen["action_mask"])))})
        moves += 1
        if terminated["__all__"]:
            return obs, rewards, infos, moves, last
        assert rewards == {a: 0.0 for a in obs}  # a reward with every observation, zero until the end


def test_a_whole_game_gives_every_seat_its_final_reward_and_rank():
    env = env_creator("corruption", players=[3, 5], reward="rank")
    counts = set()
    for seed in range(4):
        obs, rewards, infos, moves, _ = play(env, seed)
        n = infos["player_0"]["num_players"]
        counts.add(n)
        assert set(obs) == set(rewards) == {f"player_{i}" for i in range(n)}
        assert sorted(info["rank"] for info in infos.values())[0] == 1 and moves > n
        assert sum(rewards.values()) == pytest.approx(0.0)
    assert len(counts) > 1  # the player count is drawn per episode


def test_spaces_use_the_keys_of_rllibs_action_masking_module():
    env = env_creator("corruptia", num_players=4)
    space = env.observation_spaces["player_0"]
    assert set(space.spaces) == {"observations", "action_mask"}
    assert space["action_mask"].shape == (env.action_spaces["player_0"].n,)
    assert env.possible_agents == [f"player_{i}" for i in range(4)]


def test_an_unmasked_sample_ends_the_game_against_the_offender_as_rllibs_pre_check_needs():
    env = env_creator("construction")
    obs, _ = env.reset(seed=0)
    (agent, seen), = obs.items()
    bad = int(np.flatnonzero(seen["action_mask"] == 0)[0])
    with pytest.warns(UserWarning, match="is not legal now"):
        obs, rewards, terminated, _, _ = env.step({agent: bad})
    assert terminated["__all__"] and rewards[agent] == -1.0


@pytest.mark.parametrize("bad, message", [
    ({"players": [2, 5]}, r"players=\[2, 5\] is not allowed; corruption takes 3 to 7"),
    ({"players": [3, 4], "num_players": 3}, "not both"),
    ({"bribes": 3}, "unknown config key"),
])
def test_bad_env_config_names_the_problem(bad, message):
    with pytest.raises(ValueError, match=message):
        TurnBasedEnv("corruption", **bad)


def test_a_player_range_whose_spaces_differ_is_refused(monkeypatch):
    # a game whose action layout grows with the number of players: one module could not serve 2 and 4
    from tests.toy_game import registered
    from tests.training import toygame

    class GrowingToyRules(toygame.MaskedToyRules):
        def __init__(self, config):
            super().__init__(config)
            self.num_actions = 2 + self.num_players

    monkeypatch.setattr(toygame.raw_env, "rules_class", GrowingToyRules)
    with registered("growing_toy"):
        with pytest.raises(ValueError, match="depend on the player count"):
            env_creator("growing_toy", players=[2, 4])
        assert env_creator("growing_toy", players=[3, 3]).players == (3, 3)
    assert env_creator("corruptia", players=[3, 5]).players == (3, 5)  # one layout for 3-5 players


def test_the_module_spec_masks_illegal_actions(local_ray):
    import torch
    from ray.rllib.core.columns import Columns

    env = env_creator("corruption", num_players=4)
    spec = rl_module_spec(hidden=(16,))
    spec.observation_space, spec.action_space = env.observation_spaces["player_0"], env.action_spaces["player_0"]
    module = spec.build()
    obs, _ = env.reset(seed=1)
    seen = next(iter(obs.values()))
    batch = {Columns.OBS: {k: torch.as_tensor(v)[None] for k, v in seen.items()}}
    logits = module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS][0].detach().numpy()
    legal = seen["action_mask"] > 0
    assert logits[~legal].max() < -1e30 < logits[legal].min()


def test_the_envs_import_neither_ray_nor_torch():
    import subprocess
    import sys

    code = ("import sys, corruption_envs, corruption_envs.integrations; corruption_envs.env('corruption'); "
            "print(sorted(m for m in ('ray', 'torch') if m in sys.modules))")
    from pathlib import Path

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2]).stdout
    assert out.strip() == "[]"
