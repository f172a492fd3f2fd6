"""Every recipe of README's "Use it from your RL library" runs as a user would run it (docs/recipes/)."""
import os
import subprocess
import sys
from pathlib import Path


REPO = Path(__file__).resolve().parent.parent


def run_recipe(name: str, *args: str, timeout: int = 600) -> str:
    env = {**os.environ, "PYTHONPATH": str(REPO), "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}
    done = subprocess.run([sys.executable, str(REPO / "docs" / "recipes" / name), *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_plain_pettingzoo_loop_plays_an_aec_and_a_parallel_game():
    out = run_recipe("pettingzoo_loop.py")
    assert "AEC game over; ranks: {'player_0'" in out and "parallel game over; ranks: {'player_0'" in out


def test_sb3_maskable_ppo_recipe_trains_and_predicts_a_legal_move():
    out = run_recipe("sb3_maskable_ppo.py", "--steps", "512")
    assert "trained 512 steps; first move" in out


def test_torchrl_recipe_collects_whole_games_with_a_masked_policy():
    out = run_recipe("torchrl_rollout.py", "--games", "1")
    assert "game 1:" in out and "moves" in out


def test_rllib_recipe_trains_two_iterations_locally():
    out = run_recipe("rllib_ppo.py", "--iterations", "2")
    assert "iteration 2: 2000.0 env steps" in out


def test_supersuit_table_matches_the_readme():
    out = dict(line.split(": ", 1) for line in run_recipe("supersuit_wrappers.py").splitlines())
    working = {"clip_reward_v0", "reward_lambda_v0", "pad_action_space_v0", "sticky_actions_v0",
               "delay_observations_v0"}
    assert {name for name, verdict in out.items() if verdict == "runs"} == working
    readme = (REPO / "README.md").read_text()
    assert all(f"`{name}`" in readme for name in out)


def test_batched_engine_recipe_plays_a_batch_bots_and_a_match():
    out = run_recipe("batched_engine.py", "--games", "16", "--steps", "150")
    assert "random play: 2400 decisions" in out
    assert "heuristic in seat 0 vs 3 random: won" in out and "match: 16 games" in out
