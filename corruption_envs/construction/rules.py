"""The rules of Construction & Corruption (seed 002 with the rulings): turn flow, masks and effects."""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ..core import EventLog, Option, Rules, int_range
from . import codec, money
from .cards import cut_and_paste, discard, draw
from .codec import ACTIONS
from .state import CARDS, MAYOR, OVER, PAY, PLACE, VOTE, State
from .tables import (
    BIG_PAPA, BIG_PAPA_CITY_WORKERS, BIG_PAPA_FESTIVALS, BLACK, CARD_COUNTS, CARD_NAMES,
    CITY_WORKER_PIECES, CITY_WORKERS, COMPLETION_WORKERS, CUT_AND_PASTE, DEEP_MERDE, DIE_FACES,
    FESTIVAL_PIECES, GIFT_AMOUNTS, LA_GREVE, LOGO_COST, LOGO_FACES, MAX_CONTRACTS, NUM_CONTRACTS,
    NUM_TURNS, PAY_PER_CONTRACT, PLAYER_WORKERS, RED, RED_ALERT, REVENUE_QUEBEC, SETUP_DICE, SNITCH,
    SPIC_N_SPAN, SPIC_N_SPAN_REMOVES, VACATION_PAY, WHITE, YEARS, festivals, keys_value,
)

C = NUM_CONTRACTS


class ConstructionPlay(Rules):
    """Seven turns of Construction, Corruption, Election, (Investigation), Extraction; then the final pay.

    The play only: observations, resampling, text and pictures read the state it hands out;
    `env.ConstructionRules` adds them."""

    name = "construction"
    version = 0
    min_players = 3
    max_players = 7
    actions = ACTIONS
    default_players = 4
    options = {
        "completion": Option(
            "three_or_more",
            "workers that complete a contract: 'three_or_more' (publisher's FAQ, the rulings) or the "
            "Extraction page's misprinted 'more_than_three'",
            choices=tuple(COMPLETION_WORKERS),
        ),
        "red_alert": Option(
            "per_contract",
            "Red Alert: 'per_contract' (as many of the player's dice are red as contracts they own) or "
            "'all_dice' (every die they roll is red)",
            choices=("per_contract", "all_dice"),
        ),
        "secret_gifts": Option(
            True,
            "a gift's amount is seen only by giver and receiver (everyone sees that a gift was made); "
            "False makes every gift public and every cash inferable",
            choices=(True, False),
        ),
        "max_gifts": Option(
            1, "gifts a player may give in each Corruption and each Election phase", **int_range(0, 3)
        ),
        "investigation_gifts": Option(
            False,
            "gifts are also allowed in the Investigation card round (the seed's Clarification: 'players "
            "may bribe ... during an investigation'); the rulings allow them only in the Corruption and "
            "Election phases",
            choices=(True, False),
        ),
        "first_player_passes": Option(
            False,
            "the First Player card passes to the left every turn (the seed lets it be traded; "
            "the rulings keep it where it is)",
            choices=(True, False),
        ),
    }

    def __init__(self, config: dict[str, Any]) -> None:
        super().__init__(config)
        n = self.num_players
        self.threshold = COMPLETION_WORKERS[config["completion"]]
        self.secret = config["secret_gifts"]
        self.max_gifts = config["max_gifts"]
        self.investigation_gifts = config["investigation_gifts"]
        self.red_per_contract = config["red_alert"] == "per_contract"
        # action index arrays for this player count
        offs = range(1, n)
        self.gift_actions = [
            np.array([ACTIONS.encode("gift", amount=i, seat=k) for k in offs], np.intp)
            for i in range(len(GIFT_AMOUNTS))
        ]
        self.vote_actions = np.array([ACTIONS.encode("vote", seat=k) for k in range(n)] + [codec.OUTSIDER], np.intp)
        self.merde_actions = np.array([ACTIONS.encode("deep_merde", seat=k) for k in offs], np.intp)
        self.red_actions = np.array([ACTIONS.encode("red_alert", seat=k) for k in offs], np.intp)
        pairs = [pair for pair in codec.PAIRS if pair[1] < n]
        self.revenue_actions = np.array([ACTIONS.encode("revenue_quebec", pair=pair) for pair in pairs], np.intp)
        self.snitch_actions = np.array([ACTIONS.encode("snitch", pair=pair) for pair in pairs], np.intp)
        # one mask and one move method per phase that decides (OVER has none)
        self.phase_masks = {
            PLACE: self._placing_mask,
            VOTE: self._voting_mask,
            MAYOR: self._mayor_mask,
            CARDS: self._cards_mask,
            PAY: self._paying_mask,
        }
        self.phase_moves = {
            PLACE: self._placing,
            VOTE: self._voting,
            MAYOR: self._mayor,
            CARDS: self._cards,
            PAY: self._paying,
        }

    # --- setup and turn flow ----------------------------------------------------------------------
    def new_game(self, rng: np.random.Generator) -> State:
        n = self.num_players
        s = State(rng, n)
        s.events = EventLog.for_config(self.config)
        s.stack = [int(c) for c in rng.permutation(C)]
        s.stack_hidden = C
        cards = [t for t, k in enumerate(CARD_COUNTS) for _ in range(k)]
        s.deck = [cards[i] for i in rng.permutation(len(cards))]
        s.first = self._setup_roll(s)
        self._begin_turn(s)
        return s

    def _setup_roll(self, s: State) -> int:
        """Seed: "all players roll two dice. The highest roll wins the 'First Player' card" (ties reroll)."""
        rolling = list(range(self.num_players))
        while True:
            totals = s.rng.integers(1, DIE_FACES + 1, (len(rolling), SETUP_DICE)).sum(axis=1)
            if s.events is not None:
                s.events.say(-1, "setup roll: " + ", ".join(
                    f"player_{p} {int(t)}" for p, t in zip(rolling, totals)))
            best = totals.max()
            rolling = [p for p, t in zip(rolling, totals) if t == best]
            if len(rolling) == 1:
                if s.events is not None:
                    s.events.say(-1, f"player_{rolling[0]} takes the First Player card")
                return rolling[0]

    def _begin_turn(self, s: State) -> None:
        """Construction phase, then the start of the Corruption phase."""
        n, y = s.n, s.turn
        if self.config["first_player_passes"] and y > 0:
            s.first = (s.first + 1) % n
        if s.events is not None:
            s.events.say(-1, f"--- {YEARS[y]}: Construction ---")
        for k in range(n):
            p = (s.first + k) % n
            if not s.stack:
                break
            if s.contracts_of(p) >= MAX_CONTRACTS:
                continue
            c = s.stack.pop(0)
            if s.stack_hidden:
                s.stack_hidden -= 1
            s.owner[c] = p
            s.workers[c][p] += 1  # the pylon's worker, which stays while the contract is held
            if s.events is not None:
                s.events.say(-1, f"player_{p} takes contract {c}")
        self._pay_contracts(s)
        for c in range(C):
            if s.owner[c] >= 0:
                s.corruption[c] += 1
        s.phase = PLACE
        for p in range(n):
            s.to_place[p] = max(0, PLAYER_WORKERS[y] - s.contracts_of(p))
            s.passed[p] = False
            s.gifts_left[p] = self.max_gifts
        self._next_placer(s, s.first)

    def _pay_contracts(self, s: State) -> None:
        for p in range(s.n):
            k = s.contracts_of(p)
            if k:
                money.income(s, p, PAY_PER_CONTRACT * k)
                if s.events is not None:
                    s.events.say(-1, f"player_{p} is paid ${PAY_PER_CONTRACT * k * 10}k for {k} contract(s)")

    def _next_placer(self, s: State, start: int) -> None:
        """The next seat from `start` still placing in the Corruption phase, or the phase's end."""
        n = s.n
        for k in range(n):
            p = (start + k) % n
            if s.passed[p]:
                continue
            if s.to_place[p] == 0 and s.gifts_left[p] == 0:
                s.passed[p] = True  # nothing left to do (public: no hidden cash is read)
                continue
            s.actor = p
            return
        self._end_corruption(s)

    def _end_corruption(self, s: State) -> None:
        for k in range(s.n):
            p = (s.first + k) % s.n
            if s.to_place[p]:
                due = VACATION_PAY * s.to_place[p]
                paid = money.pay(s, p, due)
                if s.events is not None:
                    s.events.say(-1, f"player_{p} pays ${paid * 10}k vacation pay for "
                                     f"{s.to_place[p]} unplaced worker(s)")
        s.phase = VOTE
        s.votes = [-1] * s.n
        s.gifts_left = [self.max_gifts] * s.n
        s.actor = s.first
        if s.events is not None:
            s.events.say(-1, f"--- {YEARS[s.turn]}: Election ---")

    def _resolve_election(self, s: State) -> None:
        n = s.n
        counts = [0] * (n + 1)
        for v in s.votes:
            counts[v] += 1
        s.last_votes = counts
        s.last_ballots = s.votes[:]
        best = max(counts)
        top = [i for i in range(n + 1) if counts[i] == best]
        if s.events is not None:
            s.events.say(-1, "votes revealed: " + ", ".join(
                f"player_{p} -> {'Outsider' if v == n else f'player_{v}'}" for p, v in enumerate(s.votes)))
        s.votes = [-1] * n
        if len(top) == 1 and top[0] < n:
            m = top[0]
            s.mayor = s.last_mayor = m
            s.keys[m] += 1
            s.city_left = CITY_WORKERS[s.turn]
            s.fest_left = festivals(n)
            s.phase = MAYOR
            s.actor = m
            if s.events is not None:
                s.events.say(-1, f"player_{m} is elected mayor and receives a Key to the City")
            self._check_mayor_done(s)
        else:
            s.last_mayor = -1
            why = "a tie" if len(top) > 1 else "the Outsider wins"
            if s.events is not None:
                s.events.say(-1, f"failed election ({why}): Investigation")
            self._start_investigation(s)

    def _check_mayor_done(self, s: State) -> None:
        m = s.mayor
        free_arch = s.fest_left and any(s.owner[c] >= 0 and not s.festival[c] for c in range(C))
        city = s.city_left and any(o >= 0 for o in s.owner)
        # a mayor holding cards is asked once more even with nothing to place: whether it holds a
        # Big Papa stays private
        if not (city or free_arch or sum(s.hand[m])):
            self._extraction(s)

    def _start_investigation(self, s: State) -> None:
        s.investigated = True
        s.phase = CARDS
        s.passes = 0
        s.gifts_left = [self.max_gifts if self.investigation_gifts else 0] * s.n
        if s.events is not None:
            s.events.say(-1, f"--- {YEARS[s.turn]}: Investigation ---")
        self._next_card_player(s, s.first)

    @staticmethod
    def _asked_for_cards(s: State, p: int) -> bool:
        """Whether p gets a turn in the card round: it holds a card (or, with investigation_gifts, has
        a gift left). Decided on public facts only; a player whose cards cannot be played now is asked
        anyway (its only move is pass), so the order of play never gives a hand away."""
        return bool(s.gifts_left[p] or sum(s.hand[p]))

    def _next_card_player(self, s: State, start: int) -> None:
        """Cards are played in seat order until every player has passed in a row (rulings)."""
        n = s.n
        p = start
        while s.passes < n:
            if self._asked_for_cards(s, p):
                s.actor = p
                return
            s.passes += 1
            p = (p + 1) % n
        self._roll(s)

    def roll_dice(self, s: State, p: int) -> tuple[int, int, int]:
        """Seat p rolls one die per Corruption on its contracts: (dice, red dice, logos).

        White dice show a logo on 1 face of 6, black (Deep Merde) on 2, red (Red Alert) on 3. Each die
        is one `rng.integers(DIE_FACES)` (a logo on its lowest faces), red dice first: draws the
        batched engine replays from the same Generator, so a seed plays one game on both."""
        dice = sum(s.corruption[c] for c in range(C) if s.owner[c] == p)
        red = 0
        if s.red[p]:
            red = min(dice, s.contracts_of(p)) if self.red_per_contract else dice
        base = BLACK if s.merde[p] else WHITE
        logos = int((s.rng.integers(DIE_FACES, size=red) < LOGO_FACES[RED]).sum())
        logos += int((s.rng.integers(DIE_FACES, size=dice - red) < LOGO_FACES[base]).sum())
        return dice, red, logos

    def _roll(self, s: State) -> None:
        n = s.n
        s.payments_left = []
        for k in range(n):
            p = (s.first + k) % n
            dice, red, logos = self.roll_dice(s, p)
            s.logos[p] = logos
            s.paid_percent[p] = False
            if logos:
                s.payments_left.append(p)
            if s.events is not None:
                s.events.say(-1, f"player_{p} rolls {dice} dice ({red} red, {dice - red} "
                                 f"{'black' if s.merde[p] else 'white'}): {logos} logo(s)")
        if s.payments_left:
            s.phase = PAY
            s.actor = s.payments_left[0]
        else:
            self._extraction(s)

    def _extraction(self, s: State) -> None:
        n = s.n
        if s.events is not None:
            s.events.say(-1, f"--- {YEARS[s.turn]}: Extraction ---")
        for c in range(C):
            p = s.owner[c]
            if p < 0 or s.festival[c] or sum(s.workers[c]) + s.city[c] < self.threshold:
                continue
            s.owner[c] = -1
            s.corruption[c] = 0
            s.stack.append(c)
            card = draw(s, p)
            if s.events is not None:
                s.events.say(-1, f"contract {c} of player_{p} is completed; player_{p} draws a card")
            if card >= 0:
                if s.events is not None:
                    s.events.say(p, f"you draw {CARD_NAMES[card]}")
        for c in range(C):
            s.workers[c] = [0] * n
            if s.owner[c] >= 0:
                s.workers[c][s.owner[c]] = 1
            s.city[c] = 0
            s.festival[c] = 0
        s.mayor = -1
        s.city_left = s.fest_left = 0
        s.investigated = False
        s.cut_used = False
        s.turn += 1
        if s.turn < NUM_TURNS:
            self._begin_turn(s)
            return
        if s.events is not None:
            s.events.say(-1, "--- Fin: the final pay ---")
        self._pay_contracts(s)
        s.phase = OVER
        s.actor = -1

    # --- decisions --------------------------------------------------------------------------------
    def current_player(self, s: State) -> int:
        return s.actor

    def legal_mask(self, s: State) -> np.ndarray:
        mask = np.zeros(codec.NUM_ACTIONS, np.int8)
        fill = self.phase_masks.get(s.phase)
        if fill is not None:
            fill(s, s.actor, mask)
        return mask

    def _placing_mask(self, s: State, p: int, mask: np.ndarray) -> None:
        """Corruption phase: place a worker on a contract, give money, or pass."""
        mask[codec.PASS] = 1
        if s.to_place[p]:
            for c in range(C):
                if s.owner[c] >= 0:
                    mask[codec.PLACE + c] = 1
        self._gift_mask(s, p, mask)

    def _voting_mask(self, s: State, p: int, mask: np.ndarray) -> None:
        """Election: vote for a seat or the Outsider, or give money."""
        mask[self.vote_actions] = 1
        self._gift_mask(s, p, mask)

    def _mayor_mask(self, s: State, p: int, mask: np.ndarray) -> None:
        """The mayor's city workers, festivals and Big Papa, or pass."""
        mask[codec.PASS] = 1
        for c in range(C):
            if s.owner[c] >= 0:
                if s.city_left:
                    mask[codec.CITY + c] = 1
                if s.fest_left and not s.festival[c]:
                    mask[codec.FESTIVAL + c] = 1
        if s.hand[p][BIG_PAPA]:
            mask[codec.BIG_PAPA] = 1

    def _cards_mask(self, s: State, p: int, mask: np.ndarray) -> None:
        """Investigation: play a card, give money (with investigation_gifts), or pass."""
        mask[codec.PASS] = 1
        self._gift_mask(s, p, mask)
        hand = s.hand[p]
        n = s.n
        if hand[CUT_AND_PASTE] and not s.cut_used:
            for k in range(1, n):
                if sum(s.hand[(p + k) % n]):
                    mask[codec.CUT_AND_PASTE + k - 1] = 1
        if hand[DEEP_MERDE]:
            mask[self.merde_actions] = 1
        if hand[LA_GREVE]:
            mask[codec.LA_GREVE] = 1
        if hand[RED_ALERT]:
            mask[self.red_actions] = 1
        if hand[REVENUE_QUEBEC]:
            mask[self.revenue_actions] = 1
        if hand[SPIC_N_SPAN]:
            for c in range(C):
                if s.owner[c] >= 0 and s.corruption[c]:
                    mask[codec.SPIC_N_SPAN + c] = 1
        if hand[SNITCH]:
            mask[self.snitch_actions] = 1

    def _paying_mask(self, s: State, p: int, mask: np.ndarray) -> None:
        """Investigation payment: the year's amount per logo, or 10% of my cash."""
        mask[codec.PAY_FIXED] = 1
        mask[codec.PAY_PERCENT] = 1

    def _gift_mask(self, s: State, p: int, mask: np.ndarray) -> None:
        if s.gifts_left[p]:
            cash = s.cash[p]
            for i, amount in enumerate(GIFT_AMOUNTS):
                if amount <= cash:
                    mask[self.gift_actions[i]] = 1

    def apply(self, s: State, action: int) -> None:
        play = self.phase_moves.get(s.phase)
        if play is None:
            raise ValueError("the game is over")
        kind, f = ACTIONS.decoded[action]  # a legal action (the adapter checked it)
        play(s, s.actor, kind, f)

    def _placing(self, s: State, p: int, kind: str, f: Mapping[str, Any]) -> None:
        """Corruption phase: place a worker on a contract, give money, or pass."""
        n = s.n
        if kind == "place":
            c = f["contract"]
            s.workers[c][p] += 1
            s.to_place[p] -= 1
            if s.events is not None:
                s.events.say(-1, f"player_{p} places a worker on contract {c} "
                                 f"(of player_{s.owner[c]})")
        elif kind == "gift":
            self._gift(s, p, (p + f["seat"]) % n, GIFT_AMOUNTS[f["amount"]])
        else:
            s.passed[p] = True
            if s.events is not None:
                s.events.say(-1, f"player_{p} stops placing ({s.to_place[p]} worker(s) unplaced)")
        self._next_placer(s, (p + 1) % n)

    def _voting(self, s: State, p: int, kind: str, f: Mapping[str, Any]) -> None:
        """Election: vote for a seat or the Outsider, or give money."""
        n = s.n
        if kind == "gift":
            self._gift(s, p, (p + f["seat"]) % n, GIFT_AMOUNTS[f["amount"]])
        else:
            s.votes[p] = n if kind == "outsider" else (p + f["seat"]) % n
            if s.events is not None:
                s.events.say(-1, f"player_{p} casts a secret vote")
                s.events.say(p, "you vote for " + ("the Outsider" if s.votes[p] == n
                                                    else f"player_{s.votes[p]}"))
        for k in range(1, n + 1):
            q = (p + k) % n
            if s.votes[q] < 0:
                s.actor = q
                return
        self._resolve_election(s)

    def _mayor(self, s: State, p: int, kind: str, f: Mapping[str, Any]) -> None:
        """The mayor's city workers, festivals and Big Papa, or pass."""
        if kind == "pass":
            if s.events is not None:
                s.events.say(-1, f"mayor player_{p} places nothing more")
            self._extraction(s)
            return
        if kind == "city":
            s.city[f["contract"]] += 1
            s.city_left -= 1
            if s.events is not None:
                s.events.say(-1, f"mayor player_{p} puts a city worker on contract {f['contract']}")
        elif kind == "festival":
            s.festival[f["contract"]] = 1
            s.fest_left -= 1
            if s.events is not None:
                s.events.say(-1, f"mayor player_{p} puts a festival on contract {f['contract']}")
        else:
            discard(s, p, BIG_PAPA)
            arches = FESTIVAL_PIECES - sum(s.festival) - s.fest_left
            meeples = CITY_WORKER_PIECES - sum(s.city) - s.city_left
            s.fest_left += min(BIG_PAPA_FESTIVALS, arches)
            s.city_left += min(BIG_PAPA_CITY_WORKERS, meeples)
            if s.events is not None:
                s.events.say(-1, f"mayor player_{p} plays Big Papa: one more festival and two more "
                                 "city workers")
        self._check_mayor_done(s)

    def _cards(self, s: State, p: int, kind: str, f: Mapping[str, Any]) -> None:
        """Investigation: play a card, give money (with investigation_gifts), or pass."""
        n = s.n
        if kind == "pass":
            s.passes += 1
            if s.events is not None:
                s.events.say(-1, f"player_{p} plays no card")
        elif kind == "gift":
            self._gift(s, p, (p + f["seat"]) % n, GIFT_AMOUNTS[f["amount"]])
            s.passes = 0
        else:
            self._play_card(s, p, kind, f)
            s.passes = 0
        self._next_card_player(s, (p + 1) % n)

    def _paying(self, s: State, p: int, kind: str, f: Mapping[str, Any]) -> None:
        """Investigation payment: the year's amount per logo, or 10% of my cash."""
        logos = s.logos[p]
        if kind == "pay_percent":
            money.reveal(s, p)
            s.paid_percent[p] = True
            if s.events is not None:
                s.events.say(-1, f"player_{p} shows ${s.cash[p] * 10}k and pays 10% per logo")
            paid = money.pay(s, p, s.cash[p] * logos // 10)
        else:
            paid = money.pay(s, p, logos * LOGO_COST[s.turn])
        if s.events is not None:
            s.events.say(-1, f"player_{p} pays ${paid * 10}k for {logos} logo(s)")
        s.payments_left.pop(0)
        if s.payments_left:
            s.actor = s.payments_left[0]
        else:
            self._extraction(s)

    def _gift(self, s: State, giver: int, receiver: int, amount: int) -> None:
        money.gift(s, giver, receiver, amount, self.secret)
        s.gifts_left[giver] -= 1
        if self.secret:
            if s.events is not None:
                s.events.say(-1, f"player_{giver} gives money to player_{receiver}")
                s.events.say(giver, f"you give ${amount * 10}k to player_{receiver}")
                s.events.say(receiver, f"player_{giver} gives you ${amount * 10}k")
        else:
            if s.events is not None:
                s.events.say(-1, f"player_{giver} gives ${amount * 10}k to player_{receiver}")

    def _play_card(self, s: State, p: int, kind: str, f: Mapping[str, Any]) -> None:
        n = s.n
        if kind == "cut_and_paste":
            q = (p + f["seat"]) % n
            card = cut_and_paste(s, p, q)
            s.cut_used = True
            if s.events is not None:
                s.events.say(-1, f"player_{p} plays Cut & Paste on player_{q} and takes a random card")
                s.events.say(p, f"you take {CARD_NAMES[card]} from player_{q}")
                s.events.say(q, f"player_{p} takes your {CARD_NAMES[card]}")
            return
        if kind == "deep_merde":
            q = (p + f["seat"]) % n
            discard(s, p, DEEP_MERDE)
            s.merde[q] = True
            self._corrupt(s, q)
            if s.events is not None:
                s.events.say(-1, f"player_{p} plays Deep Merde on player_{q}: black dice, +1 Corruption "
                                 "on each of their contracts")
        elif kind == "la_greve":
            discard(s, p, LA_GREVE)
            if s.events is not None:
                s.events.say(-1, f"player_{p} plays La Greve (nothing happens)")
        elif kind == "red_alert":
            q = (p + f["seat"]) % n
            discard(s, p, RED_ALERT)
            s.red[q] = s.red[p] = True
            if s.events is not None:
                s.events.say(-1, f"player_{p} plays Red Alert on player_{q}: both roll red dice")
        elif kind == "revenue_quebec":
            discard(s, p, REVENUE_QUEBEC)
            for q in ((p + a) % n for a in f["pair"]):
                money.reveal(s, q)
                self._corrupt(s, q)
                if s.events is not None:
                    s.events.say(-1, f"Revenue Quebec (player_{p}) counts player_{q}'s cash: "
                                     f"${s.cash[q] * 10}k; +1 Corruption on each of their contracts")
        elif kind == "spic_n_span":
            c = f["contract"]
            discard(s, p, SPIC_N_SPAN)
            s.corruption[c] = max(0, s.corruption[c] - SPIC_N_SPAN_REMOVES)
            if s.events is not None:
                s.events.say(-1, f"player_{p} plays Spic 'n Span on contract {c}")
        else:
            discard(s, p, SNITCH)
            q1, q2 = ((p + a) % n for a in f["pair"])
            for q in (q1, q2):
                self._corrupt(s, q)
            if s.events is not None:
                s.events.say(-1, f"player_{p} plays Stooleur/Snitch on player_{q1} and "
                                 f"player_{q2}: +1 Corruption on each of their contracts")

    @staticmethod
    def _corrupt(s: State, q: int) -> None:
        for c in range(C):
            if s.owner[c] == q:
                s.corruption[c] += 1

    # --- the end ----------------------------------------------------------------------------------
    def scores(self, s: State) -> list[int]:
        """Seed "End of the Game": cash plus the Keys to the City, in $10,000 units."""
        return [s.cash[p] + keys_value(s.keys[p]) for p in range(s.n)]

    def final_keys(self, s: State) -> list[tuple]:
        return [(v,) for v in self.scores(s)]
