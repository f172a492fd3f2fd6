"""Policy files are data from anyone: whatever one holds, loading it gives a policy or a PolicyFileError
naming the problem and the fix, never another error, and never allocates what a forged header asks for.
(Torch-free; the round trip from a trained model is in tests/training/test_policy_io.py.)"""
from __future__ import annotations

import io
import json
import zipfile

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corruption_envs.bots import SPECS, make_agent
from corruption_envs.core import PolicyFileError
from corruption_envs.policy import NumpyPolicy, check_compatible, read_policy_file

from .toy import ToyEnv

META = {"game": "toy", "game_version": 0, "min_players": 2, "max_players": 4}


def toy_env():
    env = ToyEnv(num_players=3)
    env.reset(seed=0)
    return env


@pytest.fixture(scope="module")
def arrays(tmp_path_factory):
    """The arrays of a valid two-layer policy file for the toy game, by name."""
    env = toy_env()
    rng = np.random.default_rng(0)
    obs, actions = env.observation_layout.size, env.num_actions
    layers = [(rng.normal(size=(obs, 8)), np.zeros(8)), (rng.normal(size=(8, 4)), np.zeros(4))]
    head = (rng.normal(size=(4, actions)), np.zeros(actions))
    path = NumpyPolicy(layers, head, "relu", META).save(tmp_path_factory.mktemp("p") / "good.npz")
    with np.load(path, allow_pickle=False) as data:
        return {k: data[k] for k in data.files}


KEEP = object()  # write(): keep the arrays' own metadata


def write(tmp_path, arrays, meta=KEEP, name="p.npz"):
    """A policy file of `arrays` with `meta` (any JSON value) as its metadata record."""
    out = dict(arrays)
    if meta is not KEEP:
        out["meta"] = np.array(json.dumps(meta))
    path = tmp_path / name
    np.savez(path, **out)
    return path


def meta_of(arrays):
    return json.loads(str(arrays["meta"]))


def test_the_valid_file_loads_and_fits_the_toy(arrays, tmp_path):
    policy = read_policy_file(write(tmp_path, arrays))
    check_compatible(policy, toy_env())
    assert policy.num_actions == 2 and policy.activation == "relu"


@pytest.mark.parametrize("meta, message", [
    ([1, 2], "has metadata list [1, 2], not a JSON object"),
    (None, "has metadata NoneType None, not a JSON object"),
    ("policy", "has metadata str 'policy', not a JSON object"),
    (7, "has metadata int 7, not a JSON object"),
], ids=["list", "null", "text", "number"])
def test_metadata_that_is_not_an_object_is_named(arrays, tmp_path, meta, message):
    with pytest.raises(PolicyFileError, match="re-export it") as e:
        read_policy_file(write(tmp_path, arrays, meta))
    assert message in str(e.value)


@pytest.mark.parametrize("key, value, message", [
    ("obs_size", "5", "metadata obs_size is '5', not a whole number"),
    ("num_layers", 2.0, "metadata num_layers is 2.0, not a whole number"),
    ("num_actions", None, "metadata num_actions is None, not a whole number"),
    ("min_players", "2", "metadata min_players is '2', not a whole number"),
    ("max_players", [4], "metadata max_players is [4], not a whole number"),
    ("format_version", True, "metadata format_version is True, not a whole number"),
    ("game", 3, "metadata game is 3, not text"),
    ("prior_weight", "1", "metadata prior_weight is '1', not a number"),
    ("num_layers", 10**12, "are out of range (0-64 layers"),
    ("obs_size", 0, "are out of range"),
    ("min_players", 5, "players 5-4 are out of range"),
    ("activation", "gelu", "unknown activation 'gelu'"),
    ("prior", "oracle", "names prior 'oracle'"),
], ids=lambda v: str(v)[:12])
def test_a_metadata_field_of_the_wrong_kind_or_range_is_named(arrays, tmp_path, key, value, message):
    meta = {**meta_of(arrays), key: value}
    with pytest.raises(PolicyFileError) as e:
        read_policy_file(write(tmp_path, arrays, meta))
    assert message in str(e.value)


def test_missing_metadata_fields_are_listed(arrays, tmp_path):
    meta = meta_of(arrays)
    del meta["obs_size"], meta["num_layers"]
    with pytest.raises(PolicyFileError, match=r"metadata without \['num_layers', 'obs_size'\]"):
        read_policy_file(write(tmp_path, arrays, meta))


def test_a_policy_may_build_on_every_registered_rule_bot_and_on_nothing_else():
    from corruption_envs.named_bots import bot_names
    from corruption_envs.policy.inference import PRIORS
    assert set(PRIORS) == set(bot_names()) - {"random"}


def test_a_nan_prior_weight_is_refused(arrays, tmp_path):
    path = tmp_path / "nan.npz"
    text = json.dumps({**meta_of(arrays), "prior": "heuristic", "prior_weight": float("nan")})
    np.savez(path, **{**arrays, "meta": np.array(text)})
    with pytest.raises(PolicyFileError, match="with a finite weight"):
        read_policy_file(path)


@pytest.mark.parametrize("name, array, message", [
    ("b1", np.array(["0"] * 4),
     "layer 1 has weights of dtype float32 and bias of dtype <U1; both must be floating"),
    ("w0", "int", "layer 0 has weights of dtype int64"),
    ("w_out", np.zeros((4, 2), complex), "action head has weights of dtype complex128"),
    ("b0", np.zeros(3), r"layer 0 has weights (30, 8) and bias (3,), which do not chain from width 30"),
    ("w1", np.zeros((7, 4)), r"layer 1 has weights (7, 4) and bias (4,), which do not chain from width 8"),
    ("w_out", np.zeros((4, 3)), r"action head has weights (4, 3) and bias (2,)"),
    ("w0", np.zeros(30), r"layer 0 has weights (30,)"),
    ("w1", np.full((8, 4), np.inf), "layer 1 holds non-finite weights"),
], ids=["string-bias", "int-weights", "complex-head", "short-bias", "broken-chain", "head-width", "1d",
        "inf"])
def test_a_bad_weight_array_is_named_with_its_dtype_or_shape(arrays, tmp_path, name, array, message):
    if isinstance(array, str):
        array = np.ones(arrays[name].shape, np.int64)  # integers: finite, but not weights
    with pytest.raises(PolicyFileError) as e:
        read_policy_file(write(tmp_path, {**arrays, name: array}))
    assert message in str(e.value)
    if array.dtype.kind in "iU":
        assert "non-finite" not in str(e.value)


@pytest.mark.parametrize("name", ["w0", "b1", "w_out", "b_out"])
def test_a_missing_array_is_named(arrays, tmp_path, name):
    rest = {k: v for k, v in arrays.items() if k != name}
    with pytest.raises(PolicyFileError, match=f"lacks the weight array '{name}'"):
        read_policy_file(write(tmp_path, rest))


def npy_header_only(shape, dtype="<f8") -> bytes:
    """An .npy member whose header declares `shape` but which holds (almost) no data."""
    buf = io.BytesIO()
    np.lib.format.write_array_header_2_0(buf, {"descr": dtype, "fortran_order": False, "shape": shape})
    return buf.getvalue() + b"\0" * 16


def test_a_header_declaring_a_huge_shape_is_refused_before_reading(arrays, tmp_path):
    path = tmp_path / "huge.npz"
    np.savez(path, **arrays)
    with zipfile.ZipFile(path, "a") as z:
        z.writestr("w9.npy", npy_header_only((10**6, 10**6)))
    with pytest.raises(PolicyFileError, match=r"array 'w9' declares shape \(1000000, 1000000\) of float64"):
        read_policy_file(path)


def test_a_header_whose_data_is_missing_is_corrupt(arrays, tmp_path):
    path = tmp_path / "short.npz"
    np.savez(path, **{k: v for k, v in arrays.items() if k != "w0"})
    with zipfile.ZipFile(path, "a") as z:
        z.writestr("w0.npy", npy_header_only((30, 8)))
    with pytest.raises(PolicyFileError, match="is corrupt or not a policy .npz"):
        read_policy_file(path)


def test_an_object_array_is_refused_without_unpickling(tmp_path):
    path = tmp_path / "pickled.npz"
    np.savez(path, meta=np.array([{"format": "x"}], dtype=object))
    with pytest.raises(PolicyFileError, match="array 'meta' holds Python objects"):
        read_policy_file(path)


def test_deeply_nested_metadata_is_unreadable_not_a_crash(arrays, tmp_path):
    path = tmp_path / "deep.npz"
    np.savez(path, **{**arrays, "meta": np.array("[" * 100_000 + "]" * 100_000)})
    with pytest.raises(PolicyFileError, match="unreadable metadata"):
        read_policy_file(path)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.floats() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=5,
)
META_KEYS = ["format", "format_version", "num_layers", "obs_size", "num_actions", "game", "game_version",
             "min_players", "max_players", "activation", "prior", "prior_weight", "mixture", "other"]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=st.dictionaries(st.sampled_from(META_KEYS), JSON, min_size=1, max_size=3),
       whole=st.none() | JSON)
def test_any_metadata_gives_a_policy_or_a_policy_file_error(arrays, tmp_path, changes, whole):
    meta = whole if whole is not None else {**meta_of(arrays), **changes}
    try:
        policy = read_policy_file(write(tmp_path, arrays, meta))
        check_compatible(policy, toy_env())
    except PolicyFileError as e:
        assert "; " in str(e)  # the problem, then the fix
    else:
        assert isinstance(meta, dict)


@pytest.mark.parametrize("spec, message", [
    ("", "agent spec '' is empty or not text"),
    ("  ", "is empty or not text"),
    (None, "agent spec None is empty or not text"),
    (3, "agent spec 3 is empty or not text"),
    ("Random", "unknown agent 'Random'"),
    ("nope.npz", "unknown agent 'nope.npz'"),
    (".", "agent spec '.' is a folder, not a policy file"),
], ids=["empty", "blank", "none", "number", "case", "no-file", "folder"])
def test_a_bad_agent_spec_names_the_allowed_ones(spec, message):
    with pytest.raises(ValueError) as e:
        make_agent(spec, toy_env())
    assert message in str(e.value)
    assert str(e.value).endswith(f"use {SPECS}")


def test_heuristic_for_a_game_without_one_is_named():
    from tests.core.toy import GAME
    from tests.toy_game import registered

    with registered("toy", GAME), pytest.raises(
        ValueError, match="game 'toy' has no heuristic bot; use 'random' or a policy file"
    ):
        make_agent("heuristic", toy_env())
