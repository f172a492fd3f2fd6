"""The rules of Corruptia (seed 001 and the Corruptia rulings) as a `Rules` subclass.

A turn: the People's Die is rolled; the proposer picks a bill from hand, a cell, then three workers one
at a time (each choice masked so the proposal can still be completed); negotiation (blackmail and binding
vote offers, in seat order from the proposer until everyone has passed in a row); the vote, cast one
seat at a time from the proposer and kept secret until all have voted; resolution, offers paid, public
opinion; then the absent players' optional swaps in turn order.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core import EventLog, Option, Rules
from .codec import (
    ACTIONS, BLACKMAIL, BOARD, CELL0, CRONY_WORKER, KEEP_HAND, OFFER, PASS_ACTION, VOTE0, WORKER0,
)
from .geometry import radius
from .scoring import department_values, player_score
from .slots import MAX_SLOTS, SLOT_FEATURES, show_bill, update_bill
from .state import (
    ABSENT, APPROVED, APPROVED_BY_COIN, BILL, CELL, CRONY, DISCARD, IN_BOX, IN_DISCARD, ITEM_NAMES,
    NEGOTIATE, NO, ON_TABLE, OVER, PROPOSED, REJECTED, REJECTED_BY_COIN, SWAP_GIVE, SWAP_TAKE, TOKEN, VOTE,
    VOTE_NAMES, WORKER, YES, CorruptiaState,
)
from .tables import (
    CARDS_REMOVED, CRONIES_EACH, DEAL_PER_ROUND, DEPARTMENTS, DEPT, DIE_FACES, DISCARD_PER_ROUND,
    INCOME, NEED, NUM_CARDS, NUM_ROUNDS, OFFICIALS_PER_START_BILL, REVOLUTION, START_HAND,
    TRIANGLE_SIZE, WORKERS_PER_BILL, card_label,
)



def deficit(need: list[int] | tuple, a1: int, a2: int, a3: int) -> int:
    """Jobs that matching officials cannot fill, so Cronies must."""
    return max(0, need[1] - a1) + max(0, need[2] - a2) + max(0, need[3] - a3)


class CorruptiaPlay(Rules):
    """Corruptia's play: setup, the turn's decisions and their masks, the results, and the bill slots of
    the observation, which the moves keep up to date in the state (`slots.py`). Observations, resampling,
    text and pictures read the state it hands out; `env.CorruptiaRules` adds them."""

    name = "corruptia"
    version = 0
    min_players = 3
    max_players = 5
    actions = ACTIONS
    default_players = 4
    options = {
        "vote_offers": Option(
            True,
            "binding vote offers in negotiation (rulings): 'a Crony / a Token if you vote YES / NO'; "
            "False keeps only blackmail",
            choices=(True, False),
        ),
    }

    def __init__(self, config: dict[str, Any]) -> None:
        super().__init__(config)
        self.grid = BOARD  # one board and action layout for every count (codec.py)
        self.reach = radius(self.num_players)  # no bill of an n-player game lies further out
        self.neighbours = self.grid.neighbours
        # one mask and one move method per phase that decides (OVER has none): legal_mask() and apply()
        # dispatch on the phase
        self.phase_masks = {
            BILL: self._bill_mask,
            CELL: self._cell_mask,
            WORKER: self._worker_mask,
            NEGOTIATE: self._negotiate_mask,
            VOTE: self._vote_mask,
            SWAP_GIVE: self._give_up_mask,
            SWAP_TAKE: self._take_back_mask,
            DISCARD: self._discard_mask,
        }
        self.phase_moves = {
            BILL: self._propose_bill,
            CELL: self._choose_cell,
            WORKER: self._choose_worker,
            NEGOTIATE: self._negotiate,
            VOTE: self._vote,
            SWAP_GIVE: self._give_up,
            SWAP_TAKE: self._take_back,
            DISCARD: self._discard,
        }

    # --- setup ----------------------------------------------------------------------------------
    def new_game(self, rng: np.random.Generator) -> CorruptiaState:
        s = CorruptiaState(rng, self.num_players, self.grid.size, (MAX_SLOTS, SLOT_FEATURES),
                           EventLog.for_config(self.config))
        triangle = self._setup_pile(s)
        for cell, card in zip(self.grid.triangle, triangle):
            s.officials[cell] = OFFICIALS_PER_START_BILL  # setup 3
            self._place(s, cell, card)
        s.values = department_values(s.cell_card, s.officials, s.cronies, s.placed, self.neighbours)
        self._setup_players(s)
        if s.events is not None:
            names = ", ".join(card_label(c) for c in triangle)
            s.events.say(-1, f"setup: the starting triangle is {names}")
            s.events.say(-1, f"setup: the discard zone shows {self._cards(s.discard)}")
            for p in range(s.n):
                s.events.say(p, f"you are dealt {self._cards(s.hands[p])}")
            s.events.say(-1, f"player_{s.president} holds the Presidential Token")
        self._start_round(s)
        return s

    def _setup_pile(self, s: CorruptiaState) -> list[int]:
        """Setup 1-2: the box, the pile and the starting triangle's cards (returned)."""
        cards = s.rng.permutation(NUM_CARDS).tolist()
        removed = CARDS_REMOVED[s.n]
        s.box = cards[:removed]  # setup 1: removed unseen
        s.deck = cards[removed:]  # the top of the pile is the end of the list
        # Setup 2: each card of the triangle is replaced by the next card of the pile until its
        # department and income differ from the ones already placed. The replaced cards are shuffled
        # back into the pile (ours: the deck is used up exactly by the end of the game).
        triangle: list[int] = []
        replaced: list[int] = []
        while len(triangle) < TRIANGLE_SIZE:
            c = s.deck.pop()
            if all(DEPT[c] != DEPT[t] and INCOME[c] != INCOME[t] for t in triangle):
                triangle.append(c)
            else:
                replaced.append(c)
        if replaced:
            s.deck.extend(replaced)
            s.rng.shuffle(s.deck)
        s.returned = frozenset(replaced)
        s.returned_vec = np.zeros(NUM_CARDS, np.float32)
        s.returned_vec[replaced] = 1.0
        s.returned_vec.flags.writeable = False  # shared by every copy of the game
        s.loc[s.box] = IN_BOX
        return triangle

    def _setup_players(self, s: CorruptiaState) -> None:
        """Setup 5-10: hands, the discard zone, blackmail cards, Cronies and the President."""
        n = s.n
        s.hands = [[s.deck.pop() for _ in range(START_HAND)] for _ in range(n)]  # setup 8
        s.discard = [s.deck.pop() for _ in range(n)]  # setup 9
        for p in range(n):
            s.loc[s.hands[p]] = p
        s.loc[s.discard] = IN_DISCARD
        s.held = [[p != q for q in range(n)] for p in range(n)]  # setup 5
        s.reserve = [CRONIES_EACH] * n  # setup 6
        s.president = int(s.rng.integers(n))  # setup 10: the "most impressive pituto", by chance

    def _place(self, s: CorruptiaState, cell: int, card: int) -> None:
        s.cell_card[cell] = card
        s.loc[card] = ON_TABLE
        s.placed.append(cell)
        show_bill(s, cell, card, proposed=False)

    @staticmethod
    def _cards(cards: list[int]) -> str:
        return "; ".join(card_label(c) for c in cards) or "nothing"

    def _start_round(self, s: CorruptiaState) -> None:
        n = s.n
        for k in range(n):  # the President deals two to everyone, themselves included
            p = (s.president + k) % n
            dealt = [s.deck.pop() for _ in range(DEAL_PER_ROUND)]
            s.hands[p].extend(dealt)
            s.loc[dealt] = p
            if s.events is not None:
                s.events.say(p, f"round {s.round + 1}: you are dealt {self._cards(dealt)}")
        shown = [s.deck.pop() for _ in range(DISCARD_PER_ROUND)]
        s.discard.extend(shown)
        s.loc[shown] = IN_DISCARD
        if s.events is not None:
            s.events.say(-1, f"round {s.round + 1} begins; player_{s.president} is President; "
                                 f"revealed to the discard zone: {self._cards(shown)}")
        self._start_turn(s)

    def _start_turn(self, s: CorruptiaState) -> None:
        n = s.n
        p = s.proposer
        s.die = int(s.rng.integers(DIE_FACES))  # phase 1
        s.bill = s.cell = -1
        s.need = [0, 0, 0, 0]
        s.pending = {}
        s.pending_cronies = 0
        s.workers = 0
        s.passes = 0
        s.blackmail = [None] * n
        s.offers = []
        s.offered = [[False] * n for _ in range(n)]
        s.votes = [-1] * n
        s.absent_queue = []
        s.given = -1
        s.actor = p
        s.candidates = self._candidates(s)
        if s.events is not None:
            face = "R (revolution)" if s.die == REVOLUTION else DEPARTMENTS[s.die]
            s.events.say(-1, f"player_{p}'s turn: the People's Die shows {face}")
        reserve = s.reserve[p]
        if any(self._bill_fits(s, c, reserve) for c in s.hands[p]):
            s.phase = BILL
        else:  # rulings: no legal proposal -> discard a hand card, no vote this turn
            s.phase = DISCARD

    def _candidates(self, s: CorruptiaState) -> tuple:
        """(cell, officials of income 1, 2, 3 on its neighbours) for every empty cell next to a bill."""
        nb = self.neighbours
        cell_card, officials = s.cell_card, s.officials
        seen = set()
        out = []
        for i in s.placed:
            for j in nb[i]:
                if j < 0 or cell_card[j] >= 0 or j in seen:
                    continue
                seen.add(j)
                avail = [0, 0, 0, 0]
                for k in nb[j]:
                    if k >= 0 and cell_card[k] >= 0:
                        avail[INCOME[cell_card[k]]] += officials[k]
                out.append((j, avail[1], avail[2], avail[3]))
        return tuple(out)

    def _bill_fits(self, s: CorruptiaState, card: int, cronies: int) -> bool:
        need = NEED[card]
        for _, a1, a2, a3 in s.candidates:
            if deficit(need, a1, a2, a3) <= cronies:
                return True
        return False

    # --- the game -------------------------------------------------------------------------------
    def current_player(self, s: CorruptiaState) -> int:
        return -1 if s.phase == OVER else s.actor

    def legal_mask(self, s: CorruptiaState) -> np.ndarray:
        m = np.zeros(self.num_actions, np.int8)
        fill = self.phase_masks.get(s.phase)
        if fill is not None:
            fill(s, s.actor, m)
        return m

    def _bill_mask(self, s: CorruptiaState, p: int, m: np.ndarray) -> None:
        """The bills in p's hand that it can afford to place somewhere."""
        reserve = s.reserve[p]
        fits: dict = {}
        for c in s.hands[p]:
            need = NEED[c]
            ok = fits.get(need)
            if ok is None:
                ok = fits[need] = self._bill_fits(s, c, reserve)
            if ok:
                m[c] = 1

    def _cell_mask(self, s: CorruptiaState, p: int, m: np.ndarray) -> None:
        """The cells where p can afford the proposed bill."""
        need, reserve = NEED[s.bill], s.reserve[p]
        for cell, a1, a2, a3 in s.candidates:
            if deficit(need, a1, a2, a3) <= reserve:
                m[CELL0 + cell] = 1

    def _worker_mask(self, s: CorruptiaState, p: int, m: np.ndarray) -> None:
        """Officials on neighbouring bills with a needed income, or a Crony from p's reserve."""
        need, cell_card, officials, pending = s.need, s.cell_card, s.officials, s.pending
        for d, j in enumerate(self.neighbours[s.cell]):
            if j >= 0 and cell_card[j] >= 0 and need[INCOME[cell_card[j]]] > 0 \
                    and officials[j] > pending.get(j, 0):
                m[WORKER0 + d] = 1
        if s.reserve[p] > 0:
            m[WORKER0 + CRONY_WORKER] = 1

    def _negotiate_mask(self, s: CorruptiaState, p: int, m: np.ndarray) -> None:
        m[PASS_ACTION] = 1
        for a in self._negotiation_moves(s, p):
            m[a] = 1

    def _vote_mask(self, s: CorruptiaState, p: int, m: np.ndarray) -> None:
        m[VOTE0 + YES] = m[VOTE0 + NO] = 1
        if s.tokens[p] > 0:  # only those with Citizen Support Tokens can be absent
            m[VOTE0 + ABSENT] = 1

    def _give_up_mask(self, s: CorruptiaState, p: int, m: np.ndarray) -> None:
        m[s.hands[p]] = 1
        m[KEEP_HAND] = 1

    def _take_back_mask(self, s: CorruptiaState, p: int, m: np.ndarray) -> None:
        m[s.discard] = 1
        m[s.given] = 0  # "draw another": not the card just given up

    def _discard_mask(self, s: CorruptiaState, p: int, m: np.ndarray) -> None:
        m[s.hands[p]] = 1

    def _negotiation_moves(self, s: CorruptiaState, p: int) -> list[int]:
        """p's legal blackmails and offers (passing is always legal)."""
        n = s.n
        moves = []
        held, tokens, blackmail = s.held[p], s.tokens, s.blackmail
        for k in range(1, n):
            t = (p + k) % n
            # one blackmail per target per turn; none on a player without tokens
            if held[t] and tokens[t] > 0 and blackmail[t] is None:
                moves.append(BLACKMAIL[k, YES])
                moves.append(BLACKMAIL[k, NO])
        if self.config["vote_offers"]:
            promised = [0, 0]
            for f, _, item, _ in s.offers:
                if f == p:
                    promised[item] += 1
            spare = (s.reserve[p] - promised[CRONY], tokens[p] - promised[TOKEN])
            offered = s.offered[p]
            for k in range(1, n):
                if offered[(p + k) % n]:
                    continue
                for item in (CRONY, TOKEN):
                    if spare[item] > 0:
                        moves.append(OFFER[k, item, YES])
                        moves.append(OFFER[k, item, NO])
        return moves

    def apply(self, s: CorruptiaState, action: int) -> None:
        play = self.phase_moves.get(s.phase)
        if play is None:
            raise ValueError("the game is over")
        play(s, s.actor, action)

    def _propose_bill(self, s: CorruptiaState, p: int, action: int) -> None:
        """The proposer picks the bill to propose from its hand."""
        s.bill = action
        s.hands[p].remove(action)
        s.loc[action] = PROPOSED
        s.known_at[action] = -1
        s.played[p] += 1
        s.need = list(NEED[action])
        s.phase = CELL
        if s.events is not None:
            s.events.say(-1, f"player_{p} proposes {card_label(action)}")

    def _choose_cell(self, s: CorruptiaState, p: int, action: int) -> None:
        """The proposer picks the bill's cell."""
        s.cell = action - CELL0
        show_bill(s, s.cell, s.bill, proposed=True)
        s.phase = WORKER
        if s.events is not None:
            r, c = self.grid.coords[s.cell]
            s.events.say(-1, f"player_{p} places it at cell ({r}, {c})")

    def _vote(self, s: CorruptiaState, p: int, action: int) -> None:
        """One secret ballot; the last one resolves the vote."""
        s.votes[p] = action - VOTE0
        if s.events is not None:
            s.events.say(-1, f"player_{p} has voted")
            s.events.say(p, f"you vote {VOTE_NAMES[s.votes[p]]}")
        s.actor = (p + 1) % s.n
        if s.actor == s.proposer:
            self._resolve(s)

    def _give_up(self, s: CorruptiaState, p: int, action: int) -> None:
        """An absent player gives up a card to the discard zone, or keeps its hand."""
        if action == KEEP_HAND:
            if s.events is not None:
                s.events.say(-1, f"player_{p} keeps their hand")
            self._next_swap(s)
        else:
            s.hands[p].remove(action)
            s.known_at[action] = -1
            s.discard.append(action)
            s.loc[action] = IN_DISCARD
            s.given = action
            s.phase = SWAP_TAKE
            if s.events is not None:
                s.events.say(-1, f"player_{p} discards {card_label(action)} face up")

    def _take_back(self, s: CorruptiaState, p: int, action: int) -> None:
        """An absent player takes a card from the discard zone."""
        s.discard.remove(action)
        s.hands[p].append(action)
        s.loc[action] = p
        s.known_at[action] = p  # taken from the face-up zone: everyone knows it is in p's hand
        if s.events is not None:
            s.events.say(-1, f"player_{p} takes {card_label(action)} from the discard zone")
        self._next_swap(s)

    def _discard(self, s: CorruptiaState, p: int, action: int) -> None:
        """A proposer who can staff no bill discards one."""
        s.hands[p].remove(action)
        s.known_at[action] = -1
        s.discard.append(action)
        s.loc[action] = IN_DISCARD
        s.played[p] += 1
        if s.events is not None:
            s.events.say(-1, f"player_{p} cannot staff any bill and discards {card_label(action)}")
        self._end_turn(s)

    def _choose_worker(self, s: CorruptiaState, p: int, action: int) -> None:
        """The proposer picks one worker: an official from a neighbouring bill, or a Crony."""
        w = action - WORKER0
        need = s.need
        nb = self.neighbours[s.cell]
        if w == CRONY_WORKER:
            s.reserve[p] -= 1
            s.pending_cronies += 1
            # a Crony is wild: it takes the job that matching officials are shortest of
            avail = [0, 0, 0, 0]
            for j in nb:
                if j >= 0 and s.cell_card[j] >= 0:
                    avail[INCOME[s.cell_card[j]]] += s.officials[j] - s.pending.get(j, 0)
            best = max((i for i in (1, 2, 3) if need[i] > 0), key=lambda i: need[i] - avail[i])
            need[best] -= 1
            text = "a Crony"
        else:
            j = nb[w]
            s.pending[j] = s.pending.get(j, 0) + 1
            update_bill(s, j, s.pending[j])
            need[INCOME[s.cell_card[j]]] -= 1
            r, c = self.grid.coords[j]
            text = f"a ${INCOME[s.cell_card[j]]} Public Official from ({r}, {c})"
        s.workers += 1
        if s.events is not None:
            s.events.say(-1, f"player_{p} proposes {text} as a worker")
        if s.workers == WORKERS_PER_BILL:
            s.phase = NEGOTIATE
            s.actor = p
            s.passes = 0
            self._skip_forced_passes(s)

    def _negotiate(self, s: CorruptiaState, p: int, action: int) -> None:
        kind, f = ACTIONS.decoded[action]
        if kind == "pass":
            s.passes += 1
            if s.events is not None:
                s.events.say(-1, f"player_{p} passes")
        elif kind == "blackmail":
            demand = f["demand"]
            t = (p + f["offset"]) % s.n
            s.held[p][t] = False  # a used card leaves the game whatever happens
            s.blackmail[t] = (p, demand)
            s.passes = 0
            if s.events is not None:
                s.events.say(-1, f"player_{p} blackmails player_{t}: vote {VOTE_NAMES[demand]}")
        else:
            item, vote = f["item"], f["vote"]
            t = (p + f["offset"]) % s.n
            s.offers.append((p, t, item, vote))
            s.offered[p][t] = True
            s.passes = 0
            if s.events is not None:
                s.events.say(-1, f"player_{p} offers player_{t} a {ITEM_NAMES[item]} "
                                     f"to vote {VOTE_NAMES[vote]}")
        if s.passes >= s.n:
            self._start_vote(s)
            return
        s.actor = (p + 1) % s.n
        self._skip_forced_passes(s)

    def _skip_forced_passes(self, s: CorruptiaState) -> None:
        """A player whose only move is to pass passes without being asked."""
        while not self._negotiation_moves(s, s.actor):
            s.passes += 1
            if s.passes >= s.n:
                self._start_vote(s)
                return
            s.actor = (s.actor + 1) % s.n

    def _start_vote(self, s: CorruptiaState) -> None:
        s.phase = VOTE
        s.actor = s.proposer

    def _resolve(self, s: CorruptiaState) -> None:
        n, p, votes = s.n, s.proposer, s.votes
        yes = votes.count(YES)
        no = votes.count(NO)
        if yes != no:
            approved = yes > no
            s.last_result = APPROVED if approved else REJECTED
        else:  # tie: the President tosses the token (the env's seeded coin)
            approved = bool(s.rng.integers(2))
            s.last_result = APPROVED_BY_COIN if approved else REJECTED_BY_COIN
        s.last_votes = votes[:]
        if approved:
            moved = 0
            for j, k in s.pending.items():
                s.officials[j] -= k
                moved += k
                update_bill(s, j, 0)
            s.officials[s.cell] += moved
            s.cronies[s.cell] += s.pending_cronies  # fixed there for the rest of the game
            self._place(s, s.cell, s.bill)
            s.values = department_values(s.cell_card, s.officials, s.cronies, s.placed, self.neighbours)
        else:
            for j in s.pending:
                update_bill(s, j, 0)
            s.slots[len(s.placed)] = 0.0  # the proposed bill leaves the table
            s.discard.append(s.bill)
            s.loc[s.bill] = IN_DISCARD
            s.reserve[p] += s.pending_cronies
        if s.events is not None:
            tally = ", ".join(f"player_{q} {VOTE_NAMES[v]}" for q, v in enumerate(votes))
            how = " by the toss of the Presidential Token" if yes == no else ""
            s.events.say(-1, f"votes: {tally}; the bill is {'approved' if approved else 'rejected'}"
                                 f"{how}")
        # binding offers are paid to those who voted as asked
        for f, t, item, vote in s.offers:
            if votes[t] == vote:
                stock = s.reserve if item == CRONY else s.tokens
                stock[f] -= 1
                stock[t] += 1
                if s.events is not None:
                    s.events.say(-1, f"player_{f} pays player_{t} a {ITEM_NAMES[item]}")
        # phase 5: public opinion
        dept = DEPT[s.bill]
        for q in range(n):
            v = votes[q]
            change = 0
            if (v == YES and s.die == dept) or (v == NO and s.die == REVOLUTION):
                change += 1
            if v == ABSENT:
                change -= 1
            bm = s.blackmail[q]
            if bm is not None and v != bm[1]:
                change -= 1  # public opinion learns of the compromising situation
            if change:
                s.tokens[q] = max(0, s.tokens[q] + change)
                if s.events is not None:
                    s.events.say(-1, f"public opinion: player_{q} {change:+d} token(s)")
        s.absent_queue = [(p + k) % n for k in range(n) if votes[(p + k) % n] == ABSENT]
        self._next_swap(s)

    def _next_swap(self, s: CorruptiaState) -> None:
        """Absent players may swap a hand card with the discard zone, in turn order."""
        s.given = -1
        if s.absent_queue:
            s.actor = s.absent_queue.pop(0)
            s.phase = SWAP_GIVE
        else:
            self._end_turn(s)

    def _end_turn(self, s: CorruptiaState) -> None:
        s.turn += 1
        if s.turn < s.n:
            self._start_turn(s)
            return
        s.turn = 0
        s.round += 1
        if s.round == NUM_ROUNDS:
            s.phase = OVER
            s.actor = -1
            if s.events is not None:
                s.events.say(-1, f"the game ends; scores {self.scores(s)}")
            return
        s.president = (s.president + 1) % s.n  # the token passes left
        self._start_round(s)

    # --- the end ----------------------------------------------------------------------------------
    def scores(self, s: CorruptiaState) -> list[int]:
        return [player_score(s.hands[p], s.values, s.tokens[p], s.reserve[p]) for p in range(s.n)]

    def final_keys(self, s: CorruptiaState) -> list[tuple]:
        # most points, then most Citizen Support, then shared (rulings)
        return [(score, s.tokens[p]) for p, score in enumerate(self.scores(s))]
