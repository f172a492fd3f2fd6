"""Collect whole games of Corruption in TorchRL with one shared masked torch policy for every seat.

    pip install torchrl && python docs/recipes/torchrl_rollout.py --games 2

TorchRL's PettingZooWrapper takes the AEC env as is (`use_mask=True`: each seat's `mask` says who is on
turn, its `action_mask` which moves are legal); a MaskedCategorical samples only legal moves.
"""
import argparse

import torch
from torch import nn
from torchrl.envs.libs.pettingzoo import PettingZooWrapper
from torchrl.modules import MaskedCategorical

import corruption_envs

parser = argparse.ArgumentParser()
parser.add_argument("--games", type=int, default=2)
args = parser.parse_args()

env = PettingZooWrapper(corruption_envs.env("corruption", num_players=4), use_mask=True,
                        categorical_actions=True, seed=0)
seats = list(env.group_map)
obs_size = env.observation_spec[seats[0], "observation", "observation"].shape[-1]
actions = env.full_action_spec[seats[0], "action"].space.n
net = nn.Sequential(nn.Linear(obs_size, 64), nn.Tanh(), nn.Linear(64, actions))  # shared by every seat


def policy(td):
    for seat in seats:
        logits = net(td[seat, "observation", "observation"])
        dist = MaskedCategorical(logits=logits, mask=td[seat, "action_mask"])
        td[seat, "action"] = dist.sample()  # seats not on turn get an arbitrary legal-looking index; ignored
    return td


with torch.no_grad():
    for game in range(args.games):
        rollout = env.rollout(10_000, policy, break_when_any_done=True)
        rewards = {seat: float(rollout["next", seat, "reward"].sum()) for seat in seats}
        moves = int(sum(rollout[seat, "mask"].sum() for seat in seats))
        print(f"game {game + 1}: {moves} moves, rewards {rewards}")
        assert moves > 4 and max(rewards.values()) > 0, "the game must end by the rules, not by a penalty"
