"""Scale shown on a simulated two-node Ray cluster on this machine: env runners sample on both nodes."""
import pytest

ray = pytest.importorskip("ray")

from ray.cluster_utils import Cluster  # noqa: E402

from training import config as cfg  # noqa: E402
from training.rllib import backend as rllib_backend  # noqa: E402


@pytest.fixture(scope="module")
def two_nodes():
    if ray.is_initialized():
        ray.shutdown()
    local = {"num_cpus": 1, "node_ip_address": "127.0.0.1"}
    cluster = Cluster(initialize_head=True, head_node_args={**local, "include_dashboard": False})
    cluster.add_node(**local)
    cluster.wait_for_nodes()
    yield cluster
    ray.shutdown()
    cluster.shutdown()


@pytest.mark.parametrize("vec_env", ["dummy", "batched"])
def test_env_runners_sample_on_both_nodes_of_a_cluster_joined_by_address(two_nodes, smoke_config, vec_env):
    config = cfg.load(None, smoke_config, ["rllib.num_env_runners=2", f"rllib.address={two_nodes.address}",
                                           "rllib.train_batch_size=200", f"run.vec_env={vec_env}",
                                           "run.n_envs=16"])
    rllib_backend.connect(config.rllib.address)  # joins the running cluster, as `ray start` users do
    nodes = {n["NodeID"] for n in ray.nodes() if n["Alive"]}
    assert len(nodes) == 2
    rllib_backend.register(config)
    # a runner's first sample loads the engine's kernels; on a busy 2-core machine that can take longer
    # than RLlib's 60 s wait, after which an iteration returns no samples at all
    algo = rllib_backend.algo_config(config).env_runners(sample_timeout_s=600).build_algo()
    try:
        where = algo.env_runner_group.foreach_env_runner(
            lambda runner: ray.get_runtime_context().get_node_id(), local_env_runner=False)
        assert set(where) == nodes  # one runner per node: each node has one CPU
        name = rllib_backend.learner_id(config)
        policy = rllib_backend.export_learner(algo.get_module(name), config, {"game": "corruption"})
        rllib_backend.Snapshots(algo, config).start(policy)
        result = algo.train()
        assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= 200
        assert rllib_backend.learner_steps(result, name) > 0
    finally:
        algo.stop()
