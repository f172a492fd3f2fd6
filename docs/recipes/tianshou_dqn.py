"""Train Tianshou's DQN on Corruption with one Q-network shared by every seat, then play a greedy game.

    python -m venv .venv-tianshou && .venv-tianshou/bin/pip install torch==2.13.0 \
        && .venv-tianshou/bin/pip install tianshou -e . && .venv-tianshou/bin/python docs/recipes/tianshou_dqn.py

(its own venv: tianshou requires pandas<3 and numba, so beside ray[rllib] it would downgrade pandas).

Tianshou's own `PettingZooEnv` takes the AEC env as is: it turns each `{"observation", "action_mask"}` into
`{"obs", "mask", "agent_id"}`, and DQN keeps both its greedy and its epsilon-random moves inside `mask`
(Tianshou 2's PPO reads no mask, hence DQN); an unmasked move would end the game with -1 for the mover
(the envs' default `illegal_action="penalize"`). `MultiAgentOffPolicyAlgorithm` dispatches each seat's moves
to its algorithm; here the same DQN for all, i.e. self-play. The wrapper stores one transition per move
whose next observation is the next mover's and only the game's last move carries the final rewards, so
this shows the wiring, not a strong learner (`python -m training.selfplay` trains one).
"""
import argparse
import logging

from tianshou.algorithm import DQN, MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Batch, Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv, PettingZooEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net

import corruption_envs

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=400)
args = parser.parse_args()
logging.getLogger("tianshou.data.stats").setLevel(logging.ERROR)  # it warns that returns are per seat


def make_env() -> PettingZooEnv:
    return PettingZooEnv(corruption_envs.env("corruption", num_players=4))


env = make_env()
obs_space, action_space = env.observation_space["observation"], env.action_space
net = Net(state_shape=obs_space.shape, action_shape=action_space.n, hidden_sizes=[64])
policy = DiscreteQLearningPolicy(model=net, action_space=action_space, observation_space=obs_space,
                                 eps_training=0.2)
dqn = DQN(policy=policy, optim=AdamOptimizerFactory(lr=1e-3), gamma=1.0, target_update_freq=50)
algorithm = MultiAgentOffPolicyAlgorithm(algorithms=[dqn] * len(env.agents), env=env)

train_envs = DummyVectorEnv([make_env, make_env])
collector = Collector(algorithm, train_envs, VectorReplayBuffer(2000, len(train_envs)), exploration_noise=True)
collector.reset()
result = algorithm.run_training(OffPolicyTrainerParams(
    training_collector=collector, max_epochs=1, epoch_num_steps=args.steps, collection_step_num_env_steps=50,
    batch_size=32, update_step_num_gradient_steps_per_sample=0.02, verbose=False, show_progress=False))
print(f"trained {result.train_step} env steps ({result.train_episode} games), {result.update_step} updates")

# One greedy game through the wrapper: every move the shared Q-network picks must be legal.
algorithm.eval()
obs, _ = env.reset(seed=1)
moves, over = 0, False
while not over:
    batch = Batch(obs=Batch(obs=obs["obs"][None], mask=[obs["mask"]], agent_id=[obs["agent_id"]]), info=Batch())
    action = int(algorithm.policy(batch).act[0])
    assert obs["mask"][action], f"{obs['agent_id']} chose the illegal move {action}"
    obs, rewards, terminated, truncated, _ = env.step(action)
    moves, over = moves + 1, terminated or truncated
assert max(rewards) > 0, "the game must end by the rules, not by a penalty"
print(f"greedy game: {moves} legal moves, final rewards {dict(zip(env.agents, rewards))}")
