"""Trained policies as plain numpy: load an exported policy file and play it as a bot, without torch.

A policy file is an `.npz` archive read with `allow_pickle=False`:

- `meta`: a 0-d unicode array holding JSON: format, format_version, game, game_version, min_players,
  max_players (the player counts it was trained for), obs_size, num_actions, activation, num_layers,
  prior and prior_weight (version 2: a bot whose move gets `prior_weight` added to its logit, or
  null), and free-form provenance (training config, git commit, steps).
- `w0, b0, ..., w{k-1}, b{k-1}`: the hidden layers of the actor, `w` shaped (inputs, outputs).
- `w_out, b_out`: the action head (logits).

A mixture file (version 3, `MixturePolicy`) holds K actors of one shape and a probability for each
(`meta.mixture`): member j's arrays are `m{j}_w0, m{j}_b0, ..., m{j}_w_out, m{j}_b_out`. It plays one
member per game, drawn by those weights (a PSRO meta-strategy, `training/psro.py`). Single-actor files
stay version 2, so older readers still read them; they refuse a mixture by its version.

A policy file is data from anyone. It is read without unpickling, each array's header checked before its
data is read (`safe_npz.py`: no forged shape can make it allocate more than 256 MiB); anything else (a
pickled object, metadata that is not a JSON object or has a field of the wrong kind, a missing array,
weights that are not floating point, a wrong shape, NaN weights) fails with a `PolicyFileError` naming the
problem and the fix.

The package: `inference.py` (NumpyPolicy), `mixture.py` (MixturePolicy, mixture_of), `writer.py` (the file
writer) and `reader.py` (the reader, its checks, load_policy).
"""
from .inference import NumpyPolicy, plays_sampling
from .mixture import MixturePolicy, mixture_of
from .reader import check_compatible, load_policy, read_policy_file

__all__ = ["MixturePolicy", "NumpyPolicy", "check_compatible", "load_policy", "mixture_of", "plays_sampling",
           "read_policy_file"]
