"""A policy file played in one seat of a seeded game: every move it picks must be legal."""
import corruption_envs
from corruption_envs.policy import load_policy


def assert_plays_legal_moves(policy_file, game: str = "construction", players: int = 3, deal: int = 0,
                             moves: int = 30) -> None:
    env = corruption_envs.env(game, num_players=players)
    agent = load_policy(policy_file, env, seed=0)
    env.reset(seed=deal)
    for _ in range(moves):
        view = env.observe(env.agent_selection)
        move = agent.act(view["observation"], view["action_mask"])
        assert view["action_mask"][move]
        env.step(move)
