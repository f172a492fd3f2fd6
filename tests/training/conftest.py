import pytest

import corruption_envs

TOY_YAML = """\
game: toy
env: {num_rounds: 2}
run: {timesteps: 1024, players: [2, 4], n_envs: 2, checkpoint_every: 512, time_limit_minutes: 0}
ppo: {n_steps: 64, batch_size: 64, n_epochs: 2, net_arch: [16, 16]}
pool: {snapshot_every: 256, max_snapshots: 3, mix: {self: 0.5, heuristic: 0.25, random: 0.25}}
eval: {every: 512, games: 20, final_games: 40, count_games: 10, num_players: 3, seed: 7}
"""


@pytest.fixture(scope="package", autouse=True)
def toy_game():
    """Register the toy game under the name 'toy' for the training code (for this folder only)."""
    corruption_envs.GAMES["toy"] = "tests.training.toygame"
    yield
    del corruption_envs.GAMES["toy"]


@pytest.fixture
def toy_config_file(tmp_path):
    path = tmp_path / "toy.yaml"
    path.write_text(TOY_YAML)
    return path
