"""Corruption's rules: Phase I deal, Phase II card placement, Phase III resolution as owner decisions.

Phase III runs the seed's steps in order, each in play order; the choices in it (where a Swiss bribe
goes, whom a Hit Man kills, which bribe a Reporter removes) are decisions of the card's owner with
their own masks. A step with no choice at all (a Hit Man with no target, a Reporter with no vertical
bribe to remove) is resolved without asking.
"""
from __future__ import annotations

from typing import Any, ClassVar, Mapping

import numpy as np

from ..core import EventLog, Option, Rules
from .codec import ACTIONS, ASSIGN, DECLINE, KILL, KILL_SLOTS, NUM_ACTIONS, PLAY, REMOVE, SWISS
from .observer import Observer
from .state import (
    ASSIGNED,
    AWARDED,
    CANCELLED,
    CONTRACT,
    CORRUPTION,
    HAND,
    HIT_STEP,
    LOST,
    NO_AWARD,
    OVER,
    REPORTER_STEP,
    SWISS_STEP,
    TABLE,
    USED,
    WON,
    CorruptionState,
)
from .state import (
    SWISS as ON_SWISS,
)
from .tables import (
    BODIES,
    CARD_KIND,
    CARD_VALUE,
    CARDS_PER_ROUND,
    CONTRACT_NAMES,
    CONTRACT_VALUE,
    CONTRACTS_PER_BODY,
    DA,
    HIT_MAN,
    IS_BRIBE,
    KIND_CARDS,
    KIND_NAMES,
    NUM_BODIES,
    NUM_BRIBES,
    NUM_CONTRACTS,
    NUM_KINDS,
    NUM_ROUNDS,
    REPORTER,
)


# card id -> 1 in the column of its kind: hand (10 bools) @ KIND_MATRIX -> count per kind
KIND_MATRIX = np.eye(NUM_KINDS, dtype=np.int64)[CARD_KIND]
HIT_MAN_CARD = KIND_CARDS[HIT_MAN][0]
DA_CARD = KIND_CARDS[DA][0]
REPORTER_CARDS = KIND_CARDS[REPORTER]
KIND_FIRST_CARD = tuple(cards[0] for cards in KIND_CARDS)


class CorruptionPlay(Rules):
    """Corruption's play: the deal, the moves and their masks, the results, and the observations, which
    the moves keep up to date in the state (`observer.py`). Resampling, text and pictures read the state
    it hands out; `env.CorruptionRules` adds them."""

    name = "corruption"
    version = 0
    min_players = 3
    max_players = 7
    actions = ACTIONS
    default_players = 4
    options: ClassVar[dict[str, Option]] = {
        "reporter_may_decline": Option(
            True,
            "a Reporter's owner may remove nothing (the seed: a Reporter 'lets its owner remove one "
            "bribe'); False forces a removal whenever a vertical bribe is on the contract",
            choices=(True, False),
        ),
    }

    def __init__(self, config: dict[str, Any]) -> None:
        super().__init__(config)
        self.observer = Observer(self.num_players)
        self.observation_layout = self.observer.layout
        self.may_decline: bool = config["reporter_may_decline"]
        # one move method per phase that decides; Phase III's steps in order, each resolved until a
        # decision is needed (see _advance)
        self.phase_moves = {CORRUPTION: self._place, SWISS_STEP: self._assign, HIT_STEP: self._kill,
                            REPORTER_STEP: self._remove}
        self.phase_steps = {SWISS_STEP: self._swiss_step, HIT_STEP: self._hit_step,
                            REPORTER_STEP: self._reporter_step}

    # --- setup and rounds --------------------------------------------------------------------------
    def new_game(self, rng: np.random.Generator) -> CorruptionState:
        s = CorruptionState(rng, self.num_players)
        s.events = EventLog.for_config(self.config)
        # "Shuffle all 24 Contract cards and place them face-down as a deck" (seed)
        s.deck = [int(c) for c in rng.permutation(NUM_CONTRACTS)]
        # round 1's first player: random from the game's RNG (rulings)
        s.leader = int(rng.integers(self.num_players))
        self._start_round(s)
        return s

    def _start_round(self, s: CorruptionState) -> None:
        """Phase I: six new contracts, two under each body; deferred ones stay where they are."""
        for body in range(NUM_BODIES):
            for _ in range(CONTRACTS_PER_BODY):
                c = s.deck.pop()
                s.cloc[c] = TABLE
                s.cbody[c] = body
                s.dealt_round[c] = s.round
        s.phase = CORRUPTION
        s.turn = 0
        s.placed[:] = 0
        s.on_contracts[:] = 0
        s.to_act = s.leader
        self._rebuild_masks(s)
        self.observer.rebuild_empty_table(s)
        if s.events is not None:
            new = ", ".join(
                f"{CONTRACT_NAMES[c]} (${CONTRACT_VALUE[c]}k) under {BODIES[s.cbody[c]]}"
                for c in np.flatnonzero((s.cloc == TABLE) & (s.dealt_round == s.round))
            )
            s.events.say(-1, f"Round {s.round + 1}: dealt {new}")
            s.events.say(-1, f"player_{s.leader} plays first")

    def _rebuild_masks(self, s: CorruptionState) -> None:
        """Every seat's Phase II mask at once (see `_rebuild_mask`)."""
        n = self.num_players
        hand = s.loc == HAND
        has_kind = (hand @ KIND_MATRIX) > 0
        s.pmask = np.zeros((n, NUM_ACTIONS), np.int8)
        s.pmask[:, PLAY:SWISS] = (has_kind[:, :, None] & (s.cloc == TABLE)[None, None, :]).reshape(n, -1)
        s.pmask[:, SWISS:ASSIGN] = np.repeat(hand[:, :NUM_BRIBES], NUM_BODIES, axis=1)

    def _rebuild_mask(self, s: CorruptionState, p: int) -> None:
        """Seat p's Phase II mask: each kind it holds on every contract on the table; bribes on any
        Swiss account."""
        hand = s.loc[p] == HAND
        has_kind = (hand @ KIND_MATRIX) > 0
        s.pmask[p, PLAY:SWISS] = np.outer(has_kind, s.cloc == TABLE).ravel()
        s.pmask[p, SWISS:ASSIGN] = np.repeat(hand[:NUM_BRIBES], NUM_BODIES)

    def _next_leader(self, s: CorruptionState) -> int:
        """Most total value, then most contracts, then the earliest seat after the last first player."""
        n = self.num_players

        def key(p: int) -> tuple:
            return (int(s.won_value[p]), int(s.won_count[p]), -((p - s.leader - 1) % n))

        return max(range(n), key=key)

    # --- Rules contract ------------------------------------------------------------------------------
    def current_player(self, s: CorruptionState) -> int:
        return -1 if s.phase == OVER else s.to_act

    def legal_mask(self, s: CorruptionState) -> np.ndarray:
        if s.phase == CORRUPTION:
            return s.pmask[s.to_act].copy()
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if s.phase == SWISS_STEP:
            q, card = s.queue[s.qpos]
            mask[ASSIGN:KILL] = (s.cloc == TABLE) & (s.cbody == s.where[q, card])
        elif s.phase == HIT_STEP:
            q, card = s.queue[s.qpos]
            for rel, slot, _, _ in self._hit_targets(s, q, card):
                mask[KILL + rel * KILL_SLOTS + slot] = 1
        elif s.phase == REPORTER_STEP:
            q, card = s.queue[s.qpos]
            for owner, bribe in self._vertical_bribes(s, int(s.where[q, card])):
                mask[REMOVE + ((owner - q) % self.num_players) * NUM_BRIBES + bribe] = 1
            mask[DECLINE] = self.may_decline
        return mask

    def apply(self, s: CorruptionState, action: int) -> None:
        play = self.phase_moves.get(s.phase)
        if play is None:
            raise ValueError("the game is over")
        old_phase, old_to_act, old_round = s.phase, s.to_act, s.round
        block, f = ACTIONS.decoded[action]  # a legal action (the adapter checked it)
        play(s, block, f)
        if s.round == old_round:  # (a new round rebuilt every observation)
            self.observer.turn(s, old_phase, old_to_act)

    # --- Phase II ------------------------------------------------------------------------------------
    def _place(self, s: CorruptionState, block: str, f: Mapping[str, int]) -> None:
        """Phase II: a card on a contract (face up or down) or a bribe on a Swiss account."""
        p = s.to_act
        if block == "play":
            kind, c = f["kind"], f["contract"]
            card = self._card_of_kind(s, p, kind)
            loc = CONTRACT
            on_contracts = int(s.on_contracts[p]) + 1
            s.on_contracts[p] = on_contracts
            # round r: each player's first r cards on contracts are face-up (Swiss plays not counted)
            faceup = on_contracts <= s.round + 1
            if faceup:
                s.public[p, card] = True
            else:
                s.hidden[p][c] += 1
        else:
            card, c = f["bribe"], f["body"]
            kind = card
            loc = ON_SWISS  # always face-down
            faceup = False
            s.hidden[p][NUM_CONTRACTS + c] += 1
        s.loc[p, card] = loc
        s.where[p, card] = c
        s.seq[p, card] = s.turn
        s.placed[p] += 1
        s.turn += 1
        self.observer.card_place(s, p, card, loc, c)
        self.observer.seat(s, p, card)
        # the kind is gone from the hand unless it was the first of the two Reporters
        if card != REPORTER_CARDS[0]:
            s.pmask[p, PLAY + kind * NUM_CONTRACTS: PLAY + (kind + 1) * NUM_CONTRACTS] = 0
            if kind < NUM_BRIBES:
                s.pmask[p, SWISS + kind * NUM_BODIES: SWISS + (kind + 1) * NUM_BODIES] = 0
        if s.events is not None:
            self._log_place(s, p, card, c, faceup)
        if s.turn == CARDS_PER_ROUND * self.num_players:
            self._reveal(s)
        else:
            s.to_act = (p + 1) % self.num_players

    @staticmethod
    def _card_of_kind(s: CorruptionState, p: int, kind: int) -> int:
        """The card of `kind` to play: Reporters lowest id first."""
        if kind != REPORTER:
            return KIND_FIRST_CARD[kind]
        for card in REPORTER_CARDS:
            if s.loc[p, card] == HAND:
                return card
        raise ValueError(f"player_{p} holds no {KIND_NAMES[kind]}")

    def _log_place(self, s: CorruptionState, p: int, card: int, c: int, faceup: bool) -> None:
        what = KIND_NAMES[CARD_KIND[card]]
        if s.loc[p, card] == ON_SWISS:
            place = f"{BODIES[c]}'s Swiss account"
        else:
            place = CONTRACT_NAMES[c]
        if faceup:
            s.events.say(-1, f"player_{p} plays {what} face-up on {place}")
        else:
            s.events.say(-1, f"player_{p} plays a face-down card on {place}")
            s.events.say(p, f"you play {what} face-down on {place}")

    # --- Phase III -----------------------------------------------------------------------------------
    def _reveal(self, s: CorruptionState) -> None:
        """Phase III: all cards on the table are revealed, then step 1 (Swiss bribes) begins."""
        played = (s.loc == CONTRACT) | (s.loc == ON_SWISS)
        if s.events is not None:
            for p, card in self._in_play_order(s, played & ~s.public):
                place = (f"{BODIES[s.where[p, card]]}'s Swiss account" if s.loc[p, card] == ON_SWISS
                         else CONTRACT_NAMES[s.where[p, card]])
                s.events.say(-1, f"revealed: player_{p}'s {KIND_NAMES[CARD_KIND[card]]} on {place}")
        s.public |= played
        s.hidden = [[0] * (NUM_CONTRACTS + NUM_BODIES) for _ in range(self.num_players)]
        self.observer.reveal(s)
        # (last round's outcomes are cleared; phase and decision follow in apply's observer.turn)
        for c in np.flatnonzero(s.outcome * (s.cloc == TABLE)):
            s.outcome[c] = 0
            self.observer.outcome(s, c)
        s.phase = SWISS_STEP
        s.queue = self._in_play_order(s, s.loc == ON_SWISS)
        s.qpos = 0
        self._advance(s)

    @staticmethod
    def _in_play_order(s: CorruptionState, which: np.ndarray) -> list[tuple[int, int]]:
        ps, cards = np.nonzero(which)
        order = np.argsort(s.seq[ps, cards], kind="stable")
        return [(int(ps[i]), int(cards[i])) for i in order]

    def _advance(self, s: CorruptionState) -> None:
        """Resolve Phase III, step after step, until a decision is needed or the round ends."""
        for step, resolve in self.phase_steps.items():
            if s.phase == step and resolve(s):
                return

    def _swiss_step(self, s: CorruptionState) -> bool:
        """Step 1: each Swiss bribe's owner assigns it in play order; then on to the Hit Men.
        True while someone has to decide."""
        if s.qpos < len(s.queue):
            s.to_act = s.queue[s.qpos][0]
            return True
        self._start_step(s, HIT_STEP, HIT_MAN)
        return False

    def _hit_step(self, s: CorruptionState) -> bool:
        """Step 2: each surviving Hit Man with a target is asked; one without is removed. Then step 3
        (District Attorneys cancel) and on to the Reporters."""
        while s.qpos < len(s.queue):
            q, card = s.queue[s.qpos]
            if s.loc[q, card] != CONTRACT:  # killed by an earlier Hit Man: does not act
                s.qpos += 1
                continue
            if self._hit_targets(s, q, card):
                s.to_act = q
                return True
            c = int(s.where[q, card])
            self._discard(s, q, card)  # no target: removed without effect
            if s.events is not None:
                s.events.say(-1, f"player_{q}'s Hit Man on {CONTRACT_NAMES[c]} has no target and is removed")
            s.qpos += 1
        self._cancel_by_district_attorneys(s)
        self._start_step(s, REPORTER_STEP, REPORTER)
        return False

    def _start_step(self, s: CorruptionState, step: int, kind: int) -> None:
        """Move Phase III on to `step`: the cards of `kind` on contracts act in play order."""
        s.phase = step
        s.queue = self._in_play_order(s, (s.loc == CONTRACT) & (CARD_KIND == kind))
        s.qpos = 0

    def _reporter_step(self, s: CorruptionState) -> bool:
        """Step 4: each Reporter with a vertical bribe to remove is asked; then the awards and the
        round's end."""
        while s.qpos < len(s.queue):
            q, card = s.queue[s.qpos]
            if s.loc[q, card] == CONTRACT and self._vertical_bribes(s, int(s.where[q, card])):
                s.to_act = q
                return True
            if s.loc[q, card] == CONTRACT:
                c = int(s.where[q, card])
                self._discard(s, q, card)
                if s.events is not None:
                    s.events.say(-1, f"player_{q}'s Reporter on {CONTRACT_NAMES[c]} finds no bribe")
            s.qpos += 1
        self._award(s)
        self._end_round(s)
        return True

    def _assign(self, s: CorruptionState, block: str, f: Mapping[str, int]) -> None:
        """Step 1: the Swiss bribe on turn goes to a contract of its body."""
        c = f["contract"]
        q, card = s.queue[s.qpos]
        body = s.where[q, card]
        s.loc[q, card] = ASSIGNED
        s.where[q, card] = c
        self.observer.card_place(s, q, card, ON_SWISS, body)
        self.observer.card_place(s, q, card, ASSIGNED, c)
        if s.events is not None:
            s.events.say(-1, f"player_{q} assigns Swiss {KIND_NAMES[CARD_KIND[card]]} to "
                       f"{CONTRACT_NAMES[c]} (half value)")
        s.qpos += 1
        self._advance(s)

    def _hit_targets(self, s: CorruptionState, p: int, card: int) -> list[tuple[int, int, int, int]]:
        """(relative owner, slot, owner, card) of every DA, Reporter and other Hit Man on the Hit Man's
        contract."""
        c = s.where[p, card]
        n = self.num_players
        targets = []
        for q in range(n):
            rel = (q - p) % n
            loc, where = s.loc[q], s.where[q]
            if loc[DA_CARD] == CONTRACT and where[DA_CARD] == c:
                targets.append((rel, 0, q, DA_CARD))
            reps = [r for r in REPORTER_CARDS if loc[r] == CONTRACT and where[r] == c]
            reps.sort(key=lambda r: s.seq[q, r])
            for i, r in enumerate(reps):
                targets.append((rel, 1 + i, q, r))
            if q != p and loc[HIT_MAN_CARD] == CONTRACT and where[HIT_MAN_CARD] == c:
                targets.append((rel, 3, q, HIT_MAN_CARD))
        return targets

    def _kill(self, s: CorruptionState, block: str, f: Mapping[str, int]) -> None:
        """Step 2: the Hit Man on turn kills a card."""
        rel, slot = f["seat"], f["slot"]
        p, card = s.queue[s.qpos]
        for t_rel, t_slot, q, victim in self._hit_targets(s, p, card):
            if (t_rel, t_slot) == (rel, slot):
                break
        else:
            raise ValueError(f"no card in slot {slot} of seat +{rel} on that contract")
        # the Hit Man is discarded with its victim (rulings)
        c = int(s.where[p, card])
        self._discard(s, q, victim)
        self._discard(s, p, card)
        if s.events is not None:
            s.events.say(-1, f"player_{p}'s Hit Man kills player_{q}'s "
                       f"{KIND_NAMES[CARD_KIND[victim]]} on {CONTRACT_NAMES[c]}")
        s.qpos += 1
        self._advance(s)

    def _discard(self, s: CorruptionState, q: int, card: int) -> None:
        """A character on a contract leaves the game."""
        c = s.where[q, card]
        s.loc[q, card] = USED
        s.where[q, card] = -1
        self.observer.card_place(s, q, card, CONTRACT, c)

    def _cancel_by_district_attorneys(self, s: CorruptionState) -> None:
        """Step 3: a contract with a surviving DA is cancelled and deferred; its bribes go back."""
        das = s.loc[:, DA_CARD] == CONTRACT
        if not das.any():
            return
        for c in sorted({int(x) for x in s.where[das, DA_CARD]}):
            here = ((s.loc == CONTRACT) | (s.loc == ASSIGNED)) & (s.where == c)
            before = s.loc.copy()
            s.loc[here & IS_BRIBE] = HAND
            s.loc[here & ~IS_BRIBE] = USED
            s.where[here] = -1
            for q, card in zip(*np.nonzero(here)):
                self.observer.card_place(s, int(q), int(card), int(before[q, card]), c)
                self.observer.seat(s, int(q), int(card))
            s.outcome[c] = CANCELLED
            self.observer.outcome(s, c)
            if s.events is not None:
                s.events.say(-1, f"a District Attorney cancels {CONTRACT_NAMES[c]}: deferred, "
                           "bribes returned")

    def _vertical_bribes(self, s: CorruptionState, c: int) -> list[tuple[int, int]]:
        """(owner, bribe) of every vertical bribe on contract c (Swiss bribes stay horizontal)."""
        owners, bribes = np.nonzero((s.loc[:, :NUM_BRIBES] == CONTRACT) & (s.where[:, :NUM_BRIBES] == c))
        return [(int(q), int(b)) for q, b in zip(owners, bribes)]

    def _remove(self, s: CorruptionState, block: str, f: Mapping[str, int]) -> None:
        """Step 4: the Reporter on turn removes a vertical bribe, or nothing."""
        p, card = s.queue[s.qpos]
        c = int(s.where[p, card])
        if block == "decline":
            if s.events is not None:
                s.events.say(-1, f"player_{p}'s Reporter on {CONTRACT_NAMES[c]} removes nothing")
        else:
            rel, bribe = f["seat"], f["bribe"]
            q = (p + rel) % self.num_players
            s.loc[q, bribe] = HAND
            s.where[q, bribe] = -1
            self.observer.card_place(s, q, bribe, CONTRACT, c)
            self.observer.seat(s, q, bribe)
            if s.events is not None:
                s.events.say(-1, f"player_{p}'s Reporter removes player_{q}'s "
                           f"{KIND_NAMES[bribe]} from {CONTRACT_NAMES[c]}")
        self._discard(s, p, card)
        s.qpos += 1
        self._advance(s)

    def bribe_totals(self, s: CorruptionState) -> np.ndarray:
        """(players, contracts) bribe totals in half-$1,000 units: vertical x2, Swiss assigned x1."""
        totals = np.zeros((self.num_players, NUM_CONTRACTS), np.int64)
        for weight, place in ((2, CONTRACT), (1, ASSIGNED)):
            qs, cards = np.nonzero((s.loc == place) & IS_BRIBE)
            np.add.at(totals, (qs, s.where[qs, cards].astype(np.int64)), weight * CARD_VALUE[cards])
        return totals

    def _award(self, s: CorruptionState) -> None:
        """Step 5: the highest total wins; a tie (no bribes at all included) defers the contract."""
        totals = self.bribe_totals(s)
        best = totals.max(axis=0)
        sole = (totals == best).sum(axis=0) == 1
        open_ = (s.cloc == TABLE) & (s.outcome != CANCELLED)
        winner = totals.argmax(axis=0)
        for c in np.flatnonzero(open_).tolist():
            if best[c] > 0 and sole[c]:
                w = int(winner[c])
                s.cloc[c] = WON
                s.cowner[c] = w
                s.won_value[w] += CONTRACT_VALUE[c]
                s.won_count[w] += 1
                s.outcome[c] = AWARDED
                if s.events is not None:
                    s.events.say(-1, f"player_{w} wins {CONTRACT_NAMES[c]} (${CONTRACT_VALUE[c]}k) "
                               f"with ${best[c] / 2:g}k")
            else:
                s.outcome[c] = NO_AWARD
                if s.events is not None:
                    s.events.say(-1, f"{CONTRACT_NAMES[c]}: no award (tie at ${best[c] / 2:g}k), deferred")

    def _end_round(self, s: CorruptionState) -> None:
        """Bribes come back to their owners; characters never do."""
        out = s.loc != HAND
        s.loc[out & ~IS_BRIBE] = USED
        s.loc[out & IS_BRIBE] = HAND
        s.public[s.loc == HAND] = False
        s.where[:] = -1
        s.seq[:] = -1
        s.queue = []
        s.qpos = 0
        s.round += 1
        if s.round == NUM_ROUNDS:
            # contracts still unawarded after round 4 are lost (rulings)
            s.cloc[s.cloc == TABLE] = LOST
            s.phase = OVER
            s.to_act = -1
            self.observer.rebuild_empty_table(s)
            if s.events is not None:
                s.events.say(-1, "game over: " + ", ".join(
                    f"player_{p} ${s.won_value[p]}k" for p in range(self.num_players)))
            return
        s.leader = self._next_leader(s)
        self._start_round(s)

    # --- results -------------------------------------------------------------------------------------
    def final_keys(self, s: CorruptionState) -> list[tuple]:
        # equal total value: the tied players share the win (rulings)
        return [(int(v),) for v in s.won_value]

    def scores(self, s: CorruptionState) -> list[int]:
        return [int(v) for v in s.won_value]

    # --- information ---------------------------------------------------------------------------------
    def observe(self, s: CorruptionState, player: int) -> np.ndarray:
        return s.obs[player].copy()
