"""training.best_response: a best response to a fixed field from the game's config, optionally warm-started
with a critic that first learns alone; bad input names the fault and writes nothing."""
import numpy as np
import pytest
import torch

from corruption_envs.policy import read_policy_file
from tests.training.legal_play import assert_plays_legal_moves
from training.best_response import main
from training.ppo.exploiter import actor_frozen

CHAMPION = "policies/construction/champion.npz"
SHORT = ["--game", "construction", "--against", "heuristic", "--players", "3", "--steps", "2048",
         "--set", "run.n_envs=16"]


def test_inside_actor_frozen_only_the_critic_learns():
    net = torch.nn.ModuleDict({"action_net": torch.nn.Linear(3, 2), "value_net": torch.nn.Linear(3, 1)})
    before = {k: p.detach().clone() for k, p in net.named_parameters()}
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    x = torch.ones(4, 3)
    with actor_frozen(net):
        (net["action_net"](x).sum() + net["value_net"](x).sum()).backward()
        opt.step()
    after = dict(net.named_parameters())
    assert torch.equal(after["action_net.weight"], before["action_net.weight"])
    assert not torch.equal(after["value_net.weight"], before["value_net.weight"])
    assert all(p.requires_grad for p in net.parameters())


def test_a_short_best_response_plays_legal_greedy_moves_and_the_seed_fixes_it(tmp_path, capsys):
    a, b = tmp_path / "a.npz", tmp_path / "b.npz"
    warm = ["--init", CHAMPION, "--critic-warmup", "1024", "--mix", "{self: 0.5, expert: 0.5}"]
    assert main([*SHORT, *warm, "--out", str(a)]) == 0
    assert main([*SHORT, *warm, "--out", str(b)]) == 0
    assert "learner steps" in capsys.readouterr().out
    first, second = read_policy_file(a), read_policy_file(b)
    assert first.meta["play"] == "greedy"
    layers = [*first.layers, first.head], [*second.layers, second.head]
    assert all(np.array_equal(x, y) for la, lb in zip(*layers) for x, y in zip(la, lb))
    start = read_policy_file(CHAMPION)
    assert not np.array_equal(first.head[0], start.head[0])  # it trained on from the champion
    assert_plays_legal_moves(a, deal=2)


@pytest.mark.parametrize("extra, fault", [
    (["--mix", "{heuristic: 1}"], "--mix"),
    (["--mix", "{self: 1, 'os:system': 1}"], "--mix"),
    (["--mix", "[self]"], "--mix"),
    (["--critic-warmup", "100"], "--critic-warmup needs --init"),
    (["--init", CHAMPION, "--critic-warmup", "2048"], "critic warm-up 2048"),
    (["--against", "nobot"], "nobot"),
])
def test_bad_input_is_named_and_nothing_is_written(tmp_path, capsys, extra, fault):
    out = tmp_path / "br.npz"
    assert main([*SHORT, *extra, "--out", str(out)]) == 2
    assert fault in capsys.readouterr().err and not out.exists()


def test_an_out_folder_that_does_not_exist_is_refused(tmp_path, capsys):
    assert main([*SHORT, "--out", str(tmp_path / "no" / "br.npz")]) == 2
    assert "does not exist" in capsys.readouterr().err
