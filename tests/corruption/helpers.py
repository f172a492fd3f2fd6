"""Building Corruption positions by playing real actions (so every test goes through the rules)."""
from __future__ import annotations

import numpy as np

from corruption_envs.corruption import CorruptionRules, codec
from corruption_envs.corruption.state import TABLE, CorruptionState
from corruption_envs.corruption.tables import CONTRACT_NAMES, KIND_CARDS

BRIBE = {v: i for i, v in enumerate((1, 2, 4, 6, 8, 10))}  # $k -> bribe index
DA, REPORTER, HIT_MAN = 6, 7, 8


def fresh(n: int = 3, seed: int = 0, leader: int = 0, **config) -> tuple[CorruptionRules, CorruptionState]:
    """A new game with `leader` to play first in round 1."""
    rules = CorruptionRules(CorruptionRules.make_config(num_players=n, **config))
    s = rules.new_game(np.random.default_rng(seed))
    s.leader = s.to_act = leader
    rules.observer.rebuild_empty_table(s)
    return rules, s


def under(s: CorruptionState, body: int) -> list[int]:
    """The contracts on the table under `body`, in id order."""
    return [int(c) for c in np.flatnonzero((s.cloc == TABLE) & (s.cbody == body))]


def play(kind: int, contract: int) -> int:
    return codec.ACTIONS.encode("play", kind=kind, contract=contract)


def bribe(value: int, contract: int) -> int:
    return codec.ACTIONS.encode("play", kind=BRIBE[value], contract=contract)


def swiss(value: int, body: int) -> int:
    return codec.ACTIONS.encode("swiss", bribe=BRIBE[value], body=body)


def legal(rules: CorruptionRules, s: CorruptionState) -> set[int]:
    return set(np.flatnonzero(rules.legal_mask(s)).tolist())


def step(rules: CorruptionRules, s: CorruptionState, action: int) -> None:
    """Apply `action`, insisting that it is legal."""
    mask = rules.legal_mask(s)
    assert mask[action], f"{rules.action_name(action, s)} is not legal; legal: " + ", ".join(
        rules.action_name(a, s) for a in np.flatnonzero(mask))
    rules.apply(s, action)


def phase2(rules: CorruptionRules, s: CorruptionState, script: dict[int, list[int]], dump: int) -> None:
    """Play Phase II: each player's scripted actions in turn order, then filler bribes (smallest
    first) on contract `dump` until everyone has placed six cards."""
    script = {p: list(a) for p, a in script.items()}
    start_round = s.round
    while s.round == start_round and s.phase == 0:
        p = s.to_act
        if script.get(p):
            step(rules, s, script[p].pop(0))
        else:
            hand = [c for c in range(6) if s.loc[p, c] == 0]
            step(rules, s, codec.ACTIONS.encode("play", kind=hand[0], contract=dump) if hand else
                 next(a for a in np.flatnonzero(rules.legal_mask(s))))
    assert not any(script.values()), f"unplayed script actions: {script}"


def card_of(s: CorruptionState, p: int, kind: int) -> int:
    """The id of player p's card of `kind` that was played last (or the first if none played)."""
    ids = KIND_CARDS[kind]
    played = [c for c in ids if s.seq[p, c] >= 0]
    return max(played, key=lambda c: s.seq[p, c]) if played else ids[0]


def name(c: int) -> str:
    return CONTRACT_NAMES[c]


def resolve(rules: CorruptionRules, s: CorruptionState) -> None:
    """Finish the round's Phase III taking the first legal choice each time."""
    start_round = s.round
    while s.round == start_round and s.phase not in (0, 4):
        step(rules, s, int(np.flatnonzero(rules.legal_mask(s))[0]))


def quiet_round(rules: CorruptionRules, s: CorruptionState) -> None:
    """A round in which everyone just dumps bribes on one contract of City Hall."""
    phase2(rules, s, {}, dump=under(s, 0)[0])
    resolve(rules, s)
