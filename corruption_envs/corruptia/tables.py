"""Corruptia's rulebook tables as data (seed 001 and the Corruptia rulings)."""
from __future__ import annotations

# Rulings: department d in 0..4, in this order.
DEPARTMENTS = ("environment", "economy", "defense", "culture", "education")
NUM_DEPTS = 5
CARDS_PER_DEPT = 18  # seed, Components: "90 Bill Cards (18 per department)"
NUM_CARDS = NUM_DEPTS * CARDS_PER_DEPT

# Rulings: the People's Die has 6 faces, the 5 departments and R (revolution), each 1/6.
DIE_FACES = NUM_DEPTS + 1
REVOLUTION = NUM_DEPTS

# Seed, Game Setup 1: cards removed unseen by player count.
CARDS_REMOVED = {3: 30, 4: 16, 5: 2}
TRIANGLE_SIZE = 3  # seed, Game Setup 2: three initial Bill Cards
OFFICIALS_PER_START_BILL = 6  # seed, Game Setup 3
NUM_OFFICIALS = TRIANGLE_SIZE * OFFICIALS_PER_START_BILL  # 18, seed Components
CRONIES_EACH = 3  # seed, Game Setup 6
START_HAND = 3  # seed, Game Setup 8
DEAL_PER_ROUND = 2  # seed, Start of the Round: two Bill Cards to each participant
DISCARD_PER_ROUND = 3  # seed, Start of the Round: three Bills revealed to the discard zone
NUM_ROUNDS = 5  # seed, Turn Sequence: five identical rounds
WORKERS_PER_BILL = 3  # seed, Phase 2: three workers
FINAL_HAND = START_HAND + NUM_ROUNDS * (DEAL_PER_ROUND - 1)  # seed, Scoring: eight cards at the end
TOKEN_POINTS = 5  # seed, Calculation of the final score 2
CRONY_POINTS = 5  # seed, Calculation of the final score 3

# Rulings: the budgets (job positions, three income expectations each).
BUDGETS = ((1, 1, 2), (1, 2, 3), (1, 3, 3), (2, 2, 3), (1, 2, 2), (2, 3, 3))


def card_dept(card: int) -> int:
    return card // CARDS_PER_DEPT


def _income(card: int) -> int:
    # Rulings: income expectation 1 + k % 3 for card k of its department.
    return 1 + (card % CARDS_PER_DEPT) % 3


def _budget(card: int) -> tuple[int, int, int]:
    # Rulings: budget B[(k // 3 + d) % 6]
    d, k = divmod(card, CARDS_PER_DEPT)
    return BUDGETS[(k // 3 + d) % 6]


DEPT = tuple(card_dept(c) for c in range(NUM_CARDS))
INCOME = tuple(_income(c) for c in range(NUM_CARDS))
BUDGET = tuple(_budget(c) for c in range(NUM_CARDS))
# Jobs of each card as counts of income 1, 2, 3 (index 0 unused so income i is index i).
NEED = tuple((0, b.count(1), b.count(2), b.count(3)) for b in BUDGET)


def card_label(card: int) -> str:
    """e.g. 'culture bill #3 ($2, jobs $1/$2/$3)'."""
    d, k = divmod(card, CARDS_PER_DEPT)
    jobs = "/".join(f"${x}" for x in BUDGET[card])
    return f"{DEPARTMENTS[d]} bill #{k} (${INCOME[card]}, jobs {jobs})"
