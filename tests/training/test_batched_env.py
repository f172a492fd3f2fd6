"""The learner's seat in a batch of games (run.vec_env: batched): the same episodes as SelfPlayEnv's,
every game handed back on the learner's turn, paid at its end, with the pool's points."""
import numpy as np
import pytest

from corruption_envs.core.rewards import terminal_rewards, win_shares
from corruption_envs.policy import NumpyPolicy
from training import config as cfg
from training.opponents.batched_env import BatchedSelfPlayVecEnv
from training.opponents.pool import OpponentPool
from corruption_envs import get_game

B = 12


def bots_only(mix=None):
    return OpponentPool(mix or {"random": 1.0}, max_snapshots=3, pfsp_power=2.0)


def run_steps(venv, steps, rng):
    """Step with random legal learner moves; yield (rewards, dones, infos) after checking the turn."""
    obs = venv.reset()
    for _ in range(steps):
        b = venv.engine.batch
        assert (b.current_player == venv.seat).all(), "every game waits for its learner"
        assert np.array_equal(obs[:, : venv.obs_size], b.observation)
        masks = np.stack(venv.env_method("action_masks"))
        assert masks.any(axis=1).all() and np.array_equal(masks, b.action_mask.astype(bool))
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)
        obs, rewards, dones, infos = venv.step(actions)
        yield rewards, dones, infos


def test_every_game_comes_back_on_the_learners_turn_and_pays_it_at_the_end():
    venv = BatchedSelfPlayVecEnv(get_game("toy"), {"num_rounds": 1, "reward": "rank"}, (2, 4), bots_only(), B, seed=3)
    counts, seats, ends = set(), set(), 0
    for rewards, dones, infos in run_steps(venv, 60, np.random.default_rng(0)):
        assert not rewards[~dones].any()
        for row in np.flatnonzero(dones):
            info = infos[row]
            n = info["num_players"]
            counts.add(n)
            assert info["opponents"] == ["random"] * (n - 1)
            assert -1.0 <= rewards[row] <= 1.0
            ends += 1
        seats.update(venv.seat.tolist())
    assert counts == {2, 3, 4} and seats == {0, 1, 2, 3} and ends > 2 * B


def test_the_learners_reward_is_its_seats_terminal_reward():
    venv = BatchedSelfPlayVecEnv(get_game("toy"), {"num_rounds": 1}, (3, 3), bots_only(), B, seed=5)
    engine, checked = venv.engine, 0
    original = engine.step

    def step(actions):  # each ended game's ranks and its learner's seat, before the row is reseated
        batch = original(actions)
        for row in np.flatnonzero(batch.terminated):
            step.last[row] = (batch.ranks[row, :3].tolist(), int(venv.seat[row]))
        return batch

    step.last = {}
    engine.step = step
    for rewards, dones, infos in run_steps(venv, 40, np.random.default_rng(1)):
        for row in np.flatnonzero(dones):
            ranks, me = step.last[row]
            expected = terminal_rewards("win", [(-r,) for r in ranks], [0, 0, 0])[me]
            assert rewards[row] == pytest.approx(expected)
            assert infos[row]["win"] == win_shares(ranks)[me]
            checked += 1
    assert checked > B


def test_snapshot_seats_report_the_learners_pairwise_points():
    pool = OpponentPool({"self": 1.0}, max_snapshots=3, pfsp_power=2.0)
    snap = pool.add(NumpyPolicy([], (np.zeros((5 + 24 + 1, 2), np.float32), np.zeros(2, np.float32))), 0)
    venv = BatchedSelfPlayVecEnv(get_game("toy"), {"num_rounds": 1}, (3, 3), pool, B, seed=2)
    seen = 0
    for _, dones, infos in run_steps(venv, 30, np.random.default_rng(2)):
        for row in np.flatnonzero(dones):
            points = infos[row]["pool_points"]
            assert len(points) == 2 and all(ident == snap.ident and p in (0.0, 0.5, 1.0) for ident, p in points)
            assert infos[row]["win"] in (0.0, 1.0, 0.5, 1 / 3)
            seen += 1
    assert seen > B


def test_maskable_ppo_learns_on_it_without_an_illegal_move():
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor

    venv = VecMonitor(BatchedSelfPlayVecEnv(get_game("toy"), {}, (2, 4), bots_only({"random": 1, "heuristic": 1}), 4, seed=0))
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [8]}, device="cpu")
    model.learn(512)  # the engine raises IllegalActionError on an unmasked move
    assert model.rollout_buffer.action_masks.reshape(-1, 2)[:, 1].min() == 0


@pytest.mark.parametrize("sets, says", [
    (["ppo.reward_baseline=heuristic", "imitation.games=0"], "duplicate play"),
    (["pool.mix={self: 1, ismcts:2: 1}"], "search bots"),
])
def test_the_config_names_what_a_batch_cannot_seat(sets, says):
    with pytest.raises(cfg.ConfigError, match=says):
        cfg.load("corruption", sets=["run.vec_env=batched", *sets])


@pytest.mark.parametrize("game,players,per_count", [("corruption", (3, 7), False), ("corruptia", (3, 5), True)])
def test_a_bot_that_plays_every_count_is_one_actor_for_all_counts(game, players, per_count):
    """Corruption's heuristic reads each row's seats, so one of it decides the rows of every count in
    one call; Corruptia's is built for one count's grid, so each count gets its own."""
    venv = BatchedSelfPlayVecEnv(get_game(game), {}, players, bots_only({"heuristic": 1.0}), 32, seed=1)
    for _ in run_steps(venv, 30, np.random.default_rng(0)):
        pass
    assert len(set(venv.batch.num_players.tolist())) > 1
    built_for = [key[2] for key in venv._actor_index if key[:2] == ("bot", "heuristic")]
    if per_count:
        assert len(built_for) > 1 and None not in built_for
    else:
        assert built_for == [None]


def test_a_steps_observations_stay_as_they_are_through_the_next_step():
    """SB3's rollout stores the observations it acted on after the next step has been taken."""
    venv = BatchedSelfPlayVecEnv(get_game("corruption"), {}, (3, 5), bots_only(), 8, seed=2)
    rng = np.random.default_rng(1)
    before = venv.reset()
    kept = before.copy()
    for _ in range(5):
        masks = venv.action_masks()
        after = venv.step((rng.random(masks.shape) * masks).argmax(axis=1))[0]
        assert np.array_equal(before, kept) and after is not before
        before, kept = after, after.copy()


def test_several_snapshots_decide_in_one_call_and_play_as_each_alone(monkeypatch):
    """The pool's snapshots decide their rows together (training.opponents.policy_group): the games are the ones
    each snapshot deciding its own rows plays."""
    def pool():
        rng = np.random.default_rng(4)  # the same snapshots in both pools
        made = OpponentPool({"self": 1.0}, max_snapshots=3, pfsp_power=2.0)
        for i in range(3):
            layers = [(rng.normal(0, 0.5, (5 + 24 + 1, 8)).astype(np.float32), np.zeros(8, np.float32))]
            made.add(NumpyPolicy(layers, (rng.normal(0, 1, (8, 2)).astype(np.float32), np.zeros(2, np.float32))), i)
        return made

    pools = [pool(), pool()]
    together = BatchedSelfPlayVecEnv(get_game("toy"), {"num_rounds": 2}, (3, 4), pools[0], B, seed=6)
    alone = BatchedSelfPlayVecEnv(get_game("toy"), {"num_rounds": 2}, (3, 4), pools[1], B, seed=6)
    monkeypatch.setattr(alone, "_group_position", lambda: np.full(len(alone.actors), -1))
    calls = []
    original = BatchedSelfPlayVecEnv._group_position
    monkeypatch.setattr(together, "_group_position", lambda: calls.append(1) or original(together))
    for (r1, d1, _), (r2, d2, _) in zip(run_steps(together, 40, np.random.default_rng(0)),
                                        run_steps(alone, 40, np.random.default_rng(0))):
        assert np.array_equal(r1, r2) and np.array_equal(d1, d2)
        assert np.array_equal(together.engine.batch.observation, alone.engine.batch.observation)
    assert calls and together._group is not None and len(together._group.policies) >= 3
