"""What training reads from files, and what it trusts (README: "What the project reads from files").

Run folders: config.yaml is validated like any config; checkpoints are tensors read with
weights_only=True plus plain JSON; pool snapshots are .npz read with allow_pickle=False. Nothing in a
run folder is unpickled, a failed --resume changes nothing in it, and a save killed halfway leaves the
previous checkpoint resumable. YAML configs are read with safe_load: a tag that builds an object fails.
"""
import json
import os
import pickle
import shutil
import zipfile

import numpy as np
import pytest
import torch

from tests.crafted import Payload, one_line_error
from tests.training.conftest import TOY_YAML
from training.network import checkpoint as ckpt
from training import config as cfg
from training.selfplay import main


@pytest.fixture(scope="module")
def base_run(tmp_path_factory):
    """A toy run of 512 steps with checkpoints at 256 and 512 (copied by each test that changes it)."""
    folder = tmp_path_factory.mktemp("trust")
    config = folder / "toy.yaml"
    config.write_text(TOY_YAML)
    out = folder / "run"
    assert main(["--config", str(config), "--out", str(out), "--no-progress", "--set", "run.timesteps=512",
                 "--set", "run.checkpoint_every=256", "--set", "eval.final_games=8"]) == 0
    return out


@pytest.fixture
def run(base_run, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(base_run, out)
    return out


def contents(folder):
    """Every file of a folder with its bytes, to compare before and after."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def manifest(run):
    return json.loads((run / "checkpoints" / "latest.json").read_text())


# --- what a checkpoint holds ------------------------------------------------------------------------------
def test_a_checkpoint_is_plain_json_naming_a_tensors_only_file(base_run):
    m = manifest(base_run)
    assert m["format"] == ckpt.FORMAT and m["timesteps"] >= 512
    assert m["model"] == f"model_{m['timesteps']}-{m['n_updates']}.pt"
    tensors = torch.load(base_run / "checkpoints" / m["model"], weights_only=True)

    def leaves(x):
        if isinstance(x, dict):
            return [leaf for v in x.values() for leaf in leaves(v)]
        if isinstance(x, (list, tuple)):
            return [leaf for v in x for leaf in leaves(v)]
        return [x]

    kinds = {type(leaf) for leaf in leaves(tensors)}
    assert torch.Tensor in kinds and kinds <= {torch.Tensor, int, float, bool, str, type(None)}, kinds
    for entry in m["pool"]["snapshots"]:  # snapshots: plain arrays, readable without pickle
        with np.load(base_run / "pool" / entry["file"], allow_pickle=False) as data:
            assert all(data[k].dtype != object for k in data.files)


# --- nothing in a run folder is unpickled -----------------------------------------------------------------
def test_resume_refuses_a_checkpoint_that_would_run_code(run, tmp_path, capsys):
    marker = tmp_path / "pwned"
    torch.save({"policy": Payload(marker), "optimizer": {}}, run / "checkpoints" / manifest(run)["model"])
    before = contents(run)
    assert main(["--resume", str(run), "--timesteps", "1024", "--no-progress"]) == 2
    one_line_error(capsys, "is corrupt or holds more than tensors", manifest(run)["model"])
    assert not marker.exists() and contents(run) == before


def test_resume_never_opens_an_sb3_pickle_from_an_older_run(run, tmp_path, capsys):
    marker = tmp_path / "pwned"
    (run / "checkpoints" / "latest.json").unlink()
    with zipfile.ZipFile(run / "checkpoints" / "latest.zip", "w") as z:  # what SB3 wrote: pickles inside
        z.writestr("data", pickle.dumps(Payload(marker)))
    assert main(["--resume", str(run), "--no-progress"]) == 2
    one_line_error(capsys, "SB3 pickle, which this version never reads")
    assert not marker.exists()


def test_resume_refuses_a_pool_snapshot_holding_a_pickle(run, tmp_path, capsys):
    marker = tmp_path / "pwned"
    snapshot = run / "pool" / manifest(run)["pool"]["snapshots"][0]["file"]
    with open(snapshot, "wb") as f:
        np.savez(f, meta=np.array([Payload(marker)], dtype=object))
    before = contents(run)
    assert main(["--resume", str(run), "--no-progress"]) == 2
    one_line_error(capsys, "pool snapshot", snapshot.name)
    assert not marker.exists() and contents(run) == before


# --- a failed --resume changes nothing in the run folder ----------------------------------------------------
def corrupt_tensors(run):
    path = run / "checkpoints" / manifest(run)["model"]
    path.write_bytes(path.read_bytes()[:200])


def rewrite_manifest(**changes):
    def change(run):
        m = manifest(run)
        m.update(changes)
        (run / "checkpoints" / "latest.json").write_text(json.dumps(m))

    return change


def nan_weights(run):
    path = run / "checkpoints" / manifest(run)["model"]
    tensors = torch.load(path, weights_only=True)
    next(iter(tensors["policy"].values())).fill_(float("nan"))
    torch.save(tensors, path)


@pytest.mark.parametrize("damage, args, message", [
    (None, ["--set", "ppo.gamma=2"], "ppo.gamma=2 is not allowed"),
    (None, ["--set", "ppo.net_arch=[8, 8]"],
     "of shape (16, 30) does not fit the model the run's config builds ((8, 30))"),
    (None, ["--set", "ppo.prior=heuristic"], "do not match the model"),
    (None, ["--set", "game=corruption"], "the run trains toy; drop --set game=corruption"),
    (None, ["--game", "corruption"], "--game corruption contradicts game: toy"),
    (corrupt_tensors, [], "is corrupt or holds more than tensors"),
    (nan_weights, [], "holds non-finite values"),
    (lambda run: (run / "checkpoints" / "latest.json").write_text("[1, 2"), [], "is not JSON"),
    (rewrite_manifest(model="../../config.yaml"), [], "is not a tensor file name"),
    (rewrite_manifest(timesteps=-5), [], "timesteps=-5 is not a count"),
    (rewrite_manifest(pool={"next_id": 1, "snapshots": [{"ident": 0, "file": "../x.npz"}]}), [], "malformed"),
    (lambda run: (run / "config.yaml").write_text("game: toy\nppo: {gama: 1}\n"), [], "unknown config key 'ppo.gama'"),
])
def test_a_failed_resume_leaves_the_run_folder_as_it_was(run, capsys, damage, args, message):
    if damage is not None:
        damage(run)
    before = contents(run)
    assert main(["--resume", str(run), "--timesteps", "1024", "--no-progress", *args]) == 2
    one_line_error(capsys, message)
    assert contents(run) == before


def test_resume_of_a_folder_that_is_not_a_run_creates_nothing(tmp_path, capsys):
    assert main(["--resume", str(tmp_path), "--no-progress"]) == 2
    one_line_error(capsys, "no config.yaml there")
    assert list(tmp_path.iterdir()) == []


# --- a save that dies halfway leaves the previous checkpoint resumable -------------------------------------------
class Killed(BaseException):
    """Stands for the process dying: nothing after it runs."""


@pytest.mark.parametrize("dies_at", ["model_", "snapshot_", "latest.json"])
def test_a_save_killed_halfway_keeps_the_previous_checkpoint(run, monkeypatch, dies_at):
    """The next save dies as it renames its file named `dies_at`, leaving what a kill leaves: the
    checkpoint at 512 steps stays whole, a resume continues from it, and the next save clears the debris."""
    previous = manifest(run)

    def replace(src, dst):
        if os.path.basename(dst).startswith(dies_at):
            raise Killed
        os.rename(src, dst)

    with monkeypatch.context() as m:
        m.setattr(ckpt.os, "replace", replace)
        with pytest.raises(Killed):
            main(["--resume", str(run), "--timesteps", "1024", "--no-progress"])
    assert manifest(run) == previous and (run / "checkpoints" / previous["model"]).exists()
    for debris in ("checkpoints/latest.tmp.json", "checkpoints/model_9-9.tmp.pt", "pool/snapshot_0099.tmp.npz"):
        (run / debris).write_bytes(b"half a file")  # a real kill skips the clean-up
    assert main(["--resume", str(run), "--timesteps", "1024", "--no-progress"]) == 0
    resumed = manifest(run)
    assert resumed["timesteps"] >= 1024 and resumed["n_updates"] > previous["n_updates"]
    assert resumed["pool"]["next_id"] > previous["pool"]["next_id"]
    assert not list(run.rglob("*.tmp*"))


def test_resume_restores_the_weights_and_optimizer_exactly(base_run):
    """Rebuilt from config.yaml, the model holds the checkpoint's tensors and counters."""
    from training.selfplay import start

    config = cfg.load(None, base_run / "config.yaml")
    checkpoint = ckpt.read(base_run)
    model, venv, pool = start(config, base_run, checkpoint)
    try:
        saved = checkpoint.tensors
        for key, t in model.policy.state_dict().items():
            assert torch.equal(t, saved["policy"][key]), key
        state = model.policy.optimizer.state_dict()["state"]
        assert state.keys() == saved["optimizer"]["state"].keys() and state
        assert all(torch.equal(state[i]["exp_avg"], saved["optimizer"]["state"][i]["exp_avg"]) for i in state)
        assert (model.num_timesteps, model._n_updates) == (checkpoint.timesteps, checkpoint.n_updates)
        assert [s.ident for s in pool.snapshots] == [d["ident"] for d in checkpoint.pool["snapshots"]]
    finally:
        venv.close()


# --- YAML configs ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, message", [
    (b"game: toy\nrun: {players: [2, 3}\n", "line 2 column"),
    (b"game: toy\nrun:\n\tseed: 1\n", "indent with spaces, not tabs"),
    (b"game: toy\nenv: {x: \"\xff\xfe\"}\n", "is not UTF-8 text"),
    (b"- game\n- toy\n", "holds a list; it must be a mapping of sections"),
    (b"toy\n", "holds a str; it must be a mapping of sections"),
    (b"game: toy\nppo: [1, 2]\n", "config ppo must be a mapping"),
])
def test_a_malformed_yaml_config_is_one_line_naming_the_file_and_the_fix(tmp_path, capsys, text, message):
    path = tmp_path / "bad.yaml"
    path.write_bytes(text)
    assert main(["--config", str(path), "--out", str(tmp_path / "out"), "--no-progress"]) == 2
    one_line_error(capsys, message, str(path))
    assert not (tmp_path / "out").exists()


def test_a_yaml_tag_that_would_run_code_is_refused(tmp_path, capsys):
    marker = tmp_path / "pwned"
    path = tmp_path / "tag.yaml"
    path.write_text(f"game: toy\nenv: !!python/object/apply:os.mkdir [{str(marker)!r}]\n")
    assert main(["--config", str(path), "--out", str(tmp_path / "out"), "--no-progress"]) == 2
    one_line_error(capsys, "python/object/apply:os.mkdir", "remove the tag", "line 2")
    assert not marker.exists()


@pytest.mark.parametrize("game", ["corruption", "corruptia", "construction", "toy"])
def test_a_config_naming_only_the_game_is_valid(tmp_path, game):
    import corruption_envs

    path = tmp_path / "min.yaml"
    path.write_text(f"game: {game}\n")
    config = cfg.load(None, path)
    rules = corruption_envs.get_game(game).rules
    assert config.run.players == [rules.default_players] * 2
    assert config.eval.num_players == rules.default_players


def test_set_game_contradicting_game_names_both(tmp_path, capsys):
    assert main(["--game", "corruption", "--set", "game=construction", "--out", str(tmp_path / "o")]) == 2
    one_line_error(capsys, "--set game=construction contradicts --game corruption")
    assert not (tmp_path / "o").exists()


# --- training.evaluate -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("args, message", [
    (["--game", "chess", "--policy", "random"], "unknown game 'chess'"),
    (["--game", "toy", "--policy", "BAD", "--players", "3"], "is corrupt or not a policy .npz"),
    (["--game", "toy", "--policy", "nobody"], "unknown agent 'nobody'"),
    (["--game", "toy", "--policy", "random", "--players", "9"], "num_players=9 is not allowed"),
    (["--game", "toy", "--policy", "random", "--players", "3", "--baselines", "champ"], "unknown agent 'champ'"),
])
def test_evaluate_cli_reports_bad_input_in_one_line(tmp_path, capsys, args, message):
    from training.evaluate import main as evaluate_main

    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"PK\x03\x04 not really a zip")
    assert evaluate_main([str(bad) if a == "BAD" else a for a in args]) == 2
    one_line_error(capsys, message)
