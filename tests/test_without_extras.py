"""The env package as the core install has it, without the vector and train extras: with numba and torch
absent it imports, plays with its bots, and names the extra a batched engine needs; with them present,
the compiled engines are imported only when an engine is asked for."""
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PLAY = """
import sys
import corruption_envs
from corruption_envs.bots import make_agent
for name in corruption_envs.list_games():
    env = corruption_envs.env(name, num_players=4)
    env.reset(seed=0)
    bots = [make_agent("heuristic", env, seed=s) for s in range(4)]
    for _ in range(20):
        seen = env.observe(env.agent_selection)
        env.step(bots[env.agent_name_mapping[env.agent_selection]].act(seen["observation"], seen["action_mask"]))
print("engines:", sorted(m for m in sys.modules if m.endswith(".engine") and m != "corruption_envs.vector.engine"))
for name in corruption_envs.list_games():
    try:
        corruption_envs.get_game(name).engine_class()
    except ImportError as e:
        print(name, "engine:", e)
"""
WITHOUT_EXTRAS = 'import sys\nsys.modules["numba"] = sys.modules["torch"] = None  # as if not installed\n' + PLAY


def run(script):
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_env_plays_without_numba_or_torch_and_an_engine_names_its_extra():
    out = run(WITHOUT_EXTRAS)
    for name in ("corruption", "corruptia", "construction"):
        assert f"{name} engine: the batched engines need numba: pip install corruption-envs[vector]" in out


def test_playing_the_env_imports_no_compiled_engine():
    out = run(PLAY)
    assert "engines: []" in out and " engine:" not in out.replace("engines:", "")
