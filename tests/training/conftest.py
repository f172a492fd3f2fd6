import pytest

TOY_YAML = """\
game: toy
env: {num_rounds: 2}
run: {timesteps: 1024, players: [2, 4], n_envs: 2, checkpoint_every: 512, time_limit_minutes: 0}
ppo: {n_steps: 64, batch_size: 64, n_epochs: 2, net_arch: [16, 16]}
pool: {snapshot_every: 256, max_snapshots: 3, mix: {self: 0.5, heuristic: 0.25, random: 0.25}}
eval: {every: 512, games: 20, final_games: 40, count_games: 10, num_players: 3, seed: 7}
"""


@pytest.fixture(scope="module", autouse=True)
def _toy_registered(toy_game):
    """The training code takes the toy game by name (tests/conftest.py registers it)."""


@pytest.fixture
def toy_config_file(tmp_path):
    path = tmp_path / "toy.yaml"
    path.write_text(TOY_YAML)
    return path
