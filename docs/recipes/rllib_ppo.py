"""Train one shared action-masking PPO policy for every seat of Corruption with Ray RLlib (new API stack).

    pip install -e ".[rllib]" && python docs/recipes/rllib_ppo.py --iterations 2
"""
import argparse
import os

import ray
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.tune.registry import register_env

from corruption_envs.integrations.rllib import env_creator, rl_module_spec

parser = argparse.ArgumentParser()
parser.add_argument("--iterations", type=int, default=2)
parser.add_argument("--env-runners", type=int, default=0, help="0 = sample in this process")
args = parser.parse_args()

os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
ray.init(address="local", include_dashboard=False, num_cpus=2, _node_ip_address="127.0.0.1", log_to_driver=False)
register_env("corruption", lambda cfg: env_creator("corruption", **cfg))
config = (
    PPOConfig()
    .environment("corruption", env_config={"players": [3, 5], "reward": "rank"})
    .env_runners(num_env_runners=args.env_runners, num_envs_per_env_runner=1)
    .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, episode, **kw: "shared")
    .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"shared": rl_module_spec(hidden=(64, 64))}))
    .training(train_batch_size_per_learner=1000, minibatch_size=250, num_epochs=2, lr=3e-4)
)
algo = config.build_algo()
for i in range(args.iterations):
    result = algo.train()
    steps = result["env_runners"]["num_env_steps_sampled_lifetime"]
    episodes = result["env_runners"]["num_episodes_lifetime"]
    print(f"iteration {i + 1}: {steps} env steps, {episodes} games")
algo.stop()
ray.shutdown()
