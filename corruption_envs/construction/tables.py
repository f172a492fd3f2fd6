"""Construction & Corruption rulebook tables as data (seed 002 and the rulings, money in $10,000 units)."""
from __future__ import annotations

# Rulings: "Turns: 7 (1994, 1998, 2001, 2005, 2009, 2013, 2017), then the final pay".
YEARS: tuple[int, ...] = (1994, 1998, 2001, 2005, 2009, 2013, 2017)
NUM_TURNS = len(YEARS)

# Rulings "Workers per player": 3 in 1994 and 1998, 4 in 2001 and 2005, 5 from 2009 on
# (seed: "in 1994 & 1998, players have three (3) workers total").
PLAYER_WORKERS: tuple[int, ...] = (3, 3, 4, 4, 5, 5, 5)
# Seed: "The city begins with one worker in 1994 & 1998, and then has two in 2001 & 2005, and finally
# three in 2009, 2013 and 2017."
CITY_WORKERS: tuple[int, ...] = (1, 1, 2, 2, 3, 3, 3)
# Seed: "Games with 6 or 7 players will have two Festivals on each turn; games with 5 players or less
# only have one Festival."
def festivals(num_players: int) -> int:
    return 2 if num_players >= 6 else 1


# Seed: "$50,000 ... 1994 and 1998; $80,000 ... 2001 and 2005; $120,000 ... 2009, 2013 and 2017" per logo.
LOGO_COST: tuple[int, ...] = (5, 5, 8, 8, 12, 12, 12)

# Seed: "Each player is paid $100,000 per contract".
PAY_PER_CONTRACT = 10
# Seed: "they must give $20,000 per worker in vacation pay to the city".
VACATION_PAY = 2
# Seed components "18 Circular Contract Pieces"; "You can have a maximum of 5 contracts."
NUM_CONTRACTS = 18
MAX_CONTRACTS = 5
# Seed: "if opponents place a total of 3 workers on a Contract, then it will be completed" (the rulings
# keep the misprinted "more than three" as the config option completion="more_than_three").
COMPLETION_WORKERS = {"three_or_more": 3, "more_than_three": 4}
# Seed: "Place an extra festival and two extra city workers this turn" (Big Papa).
BIG_PAPA_FESTIVALS = 1
BIG_PAPA_CITY_WORKERS = 2
# Seed components: "3 Red City Festival Arch Pieces", "5 Red City Worker Meeples" (ours: Big Papa cannot
# put more on the board than the box holds).
FESTIVAL_PIECES = 3
CITY_WORKER_PIECES = 5
# Seed: "Spic 'n Span: Remove 4 Corruption from any contract."
SPIC_N_SPAN_REMOVES = 4
# Seed "End of the Game": k keys are worth $100,000 x k(k+1)/2.
KEY_UNIT = 10


def keys_value(keys: int) -> int:
    return KEY_UNIT * keys * (keys + 1) // 2


# Seed dice: "White die: 1 of 6 faces is a Logo; Black die: 2 of 6; Red die: 3 of 6".
WHITE, BLACK, RED = 0, 1, 2
DIE_NAMES = ("white", "black", "red")
LOGO_FACES: tuple[int, ...] = (1, 2, 3)
DIE_FACES = 6
# Seed setup: "all players roll two dice. The highest roll wins the 'First Player' card."
SETUP_DICE = 2

# Investigation cards, seed "Investigation Cards": name and the count printed at the foot of each card.
BIG_PAPA, CUT_AND_PASTE, DEEP_MERDE, LA_GREVE, RED_ALERT, REVENUE_QUEBEC, SPIC_N_SPAN, SNITCH = range(8)
CARD_NAMES: tuple[str, ...] = (
    "Big Papa",
    "Cut & Paste",
    "Deep Merde",
    "La Greve",
    "Red Alert",
    "Revenue Quebec",
    "Spic 'n Span",
    "Stooleur/Snitch",
)
CARD_COUNTS: tuple[int, ...] = (3, 1, 12, 2, 4, 8, 4, 11)
NUM_CARD_TYPES = len(CARD_COUNTS)
NUM_CARDS = sum(CARD_COUNTS)  # 45, the component count

# Ruling: bribes are gifts of $10k, $50k or $100k.
GIFT_AMOUNTS: tuple[int, ...] = (1, 5, 10)

MAX_PLAYERS = 7
