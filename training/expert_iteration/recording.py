"""Search decisions kept as plain arrays: each position's observation, legal moves and the share of
root visits each move got. `training.search_clone --keep` writes the search bot's own decisions,
`training.expert_iteration` its guided search's targets at the student's positions (`targets_KK.npz`);
`training.search_clone --add` fits a policy to any of them, so a recording outlives one fit.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from corruption_envs.core import GameEnv


@dataclass
class SearchPlay:
    """A search's decisions at positions with more than one legal move, in play order."""

    observations: np.ndarray  # (N, obs) float32, the deciding seat's own observation
    masks: np.ndarray  # (N, actions) bool
    visits: np.ndarray  # (N, actions) float64, the share of root visits each move got
    games: np.ndarray  # (N,) int64, the game each decision was made in
    # (games,) float64, per game recorded: the lone seat's share of first place (empty: expert
    # iteration's targets, whose games are not one seat against the search)
    lone_points: np.ndarray

    def __len__(self) -> int:
        return len(self.games)

    def save(self, path: str | Path) -> None:
        """Write the decisions as plain arrays (`load` reads them back without pickle)."""
        np.savez_compressed(path, **{k: getattr(self, k) for k in PLAY_ARRAYS})

    @classmethod
    def load(cls, path: str | Path, env: GameEnv) -> SearchPlay:
        """A recording `save` wrote for `env`'s game and seat count; a ValueError names what does not fit."""
        try:
            with np.load(path, allow_pickle=False) as f:
                arrays = {k: f[k] for k in PLAY_ARRAYS}
        except (OSError, KeyError, ValueError) as e:
            raise ValueError(f"recording {str(path)!r} is not one `--keep` wrote ({e}); record it again") from None
        width, actions = env.unwrapped.observation_layout.size, env.unwrapped.num_actions
        n, m = len(arrays["games"]), len(arrays["lone_points"])
        shapes = {"observations": (n, width), "masks": (n, actions), "visits": (n, actions), "games": (n,),
                  "lone_points": (m,)}
        for k, shape in shapes.items():
            if arrays[k].shape != shape:
                raise ValueError(f"recording {str(path)!r}: {k} has shape {arrays[k].shape}, not {shape}; "
                                 f"it was recorded for another game than {env.unwrapped.metadata['name']}")
        play = cls(arrays["observations"].astype(np.float32), arrays["masks"].astype(bool),
                   arrays["visits"].astype(np.float64), arrays["games"].astype(np.int64),
                   arrays["lone_points"].astype(np.float64))
        legal_shares = np.where(play.masks, play.visits, 0.0).sum(axis=1)
        if not (np.isfinite(play.visits).all() and (play.visits >= 0).all() and np.allclose(legal_shares, 1.0)
                and ((play.lone_points >= 0) & (play.lone_points <= 1)).all()):
            raise ValueError(f"recording {str(path)!r}: its visit shares are not distributions over the legal "
                             "moves, or its lone seat's points are not shares of first place; record it again")
        return play


PLAY_ARRAYS = ("observations", "masks", "visits", "games", "lone_points")


def joined(plays: list[SearchPlay]) -> SearchPlay:
    """The recordings as one, each one's games numbered after the ones before (so held-out games stay whole)."""
    offsets = np.cumsum([0] + [int(p.games.max()) + 1 if len(p) else 0 for p in plays[:-1]])
    return SearchPlay(*(np.concatenate([getattr(p, k) for p in plays]) for k in PLAY_ARRAYS[:3]),
                      np.concatenate([p.games + o for p, o in zip(plays, offsets)]),
                      np.concatenate([p.lone_points for p in plays]))
