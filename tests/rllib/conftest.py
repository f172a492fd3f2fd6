import pytest

SMOKE_YAML = """\
game: corruption
env: {reward: rank}
run: {timesteps: 600, seed: 0, players: [3, 5], checkpoint_every: 100000}
ppo: {net_arch: [32, 32], batch_size: 128, n_epochs: 1}
pool: {snapshot_every: 300, max_snapshots: 2, mix: {self: 0.4, heuristic: 0.4, random: 0.2}}
eval: {every: 300, games: 8, final_games: 12, count_games: 8, num_players: 4}
rllib: {train_batch_size: 400}
"""


@pytest.fixture(scope="module")
def local_ray():
    """A local Ray (127.0.0.1, no dashboard) for one test module."""
    ray = pytest.importorskip("ray")
    if not ray.is_initialized():
        # address="local": a new instance even while an earlier module's cluster is still shutting down
        ray.init(address="local", include_dashboard=False, num_cpus=2, _node_ip_address="127.0.0.1",
                 log_to_driver=False)
    yield ray
    ray.shutdown()


@pytest.fixture
def smoke_config(tmp_path):
    path = tmp_path / "smoke.yaml"
    path.write_text(SMOKE_YAML)
    return path
