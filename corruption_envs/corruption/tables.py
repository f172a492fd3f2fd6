"""Corruption's rulebook tables as data (seed 000_994f818130654574, rulings.md section "Corruption")."""
from __future__ import annotations

import numpy as np

# "A complete game lasts four rounds" (seed); rulings: the blurb's "three rounds" is wrong.
NUM_ROUNDS = 4
# "each player places one card per turn ... until each player has placed all six cards" (seed).
CARDS_PER_ROUND = 6
# Padding of per-player observation pieces and of seat-relative actions: the seed's 3-7 players.
MAX_PLAYERS = 7

# "six Bribe cards valued at $1,000, $2,000, $4,000, $6,000, $8,000, and $10,000; one District
# Attorney; two Reporters; and one Hit Man" (seed). Values in $1,000 units.
BRIBE_VALUES = (1, 2, 4, 6, 8, 10)
NUM_BRIBES = len(BRIBE_VALUES)

# Card kinds: 0..5 the bribes, then the three characters.
DA, REPORTER, HIT_MAN = 6, 7, 8
NUM_KINDS = 9
KIND_NAMES = tuple(f"Bribe ${v}k" for v in BRIBE_VALUES) + ("DA", "Reporter", "Hit Man")

# A player's ten cards by id: ids 0..5 the bribes, 6 the DA, 7 and 8 the Reporters, 9 the Hit Man.
# The two Reporters are played lowest id first, so on one contract Reporter 7 is the earlier one.
HAND_SIZE = 10
CARD_KIND = np.array([0, 1, 2, 3, 4, 5, DA, REPORTER, REPORTER, HIT_MAN], np.int64)
CARD_VALUE = np.array(list(BRIBE_VALUES) + [0, 0, 0, 0], np.int64)
IS_BRIBE = CARD_KIND < NUM_BRIBES
IS_CHARACTER = ~IS_BRIBE
# kind -> the card ids of that kind, in the order they are played
KIND_CARDS = tuple(tuple(int(c) for c in np.flatnonzero(CARD_KIND == k)) for k in range(NUM_KINDS))

# "Three government body cards (City Hall, County Seat, Capitol)" (seed).
BODIES = ("City Hall", "County Seat", "Capitol")
NUM_BODIES = 3
# "Deal six contract cards ... placing two beneath each government body card" (seed).
CONTRACTS_PER_BODY = 2

# rulings.md "Contracts: 24 cards, values in $1,000 units".
CONTRACTS: tuple[tuple[str, int], ...] = (
    ("Monument", 100), ("Elementary School", 100),
    ("Fire Station", 200), ("Public Library", 200), ("City Park", 200),
    ("Police Station", 300), ("Parking Garage", 300), ("Museum", 300),
    ("Courthouse", 400), ("Water Tower", 400), ("Sewer System", 400),
    ("Hospital", 500), ("Streetcar Line", 500), ("Prison", 500),
    ("Convention Center", 600), ("Harbor", 600),
    ("Power Plant", 700), ("University", 700),
    ("Stadium", 800), ("Interstate Expressway", 800),
    ("Suspension Bridge", 900), ("Airport", 900),
    ("Subway System", 1000),
    ("Hydro-Electric Dam", 1200),
)
NUM_CONTRACTS = len(CONTRACTS)
CONTRACT_NAMES = tuple(name for name, _ in CONTRACTS)
CONTRACT_VALUE = np.array([v for _, v in CONTRACTS], np.int64)
TOTAL_CONTRACT_VALUE = int(CONTRACT_VALUE.sum())
MAX_CONTRACT_VALUE = int(CONTRACT_VALUE.max())
