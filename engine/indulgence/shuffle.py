"""Every random choice of a game, derived from its seed (docs/engine.md "Seeds").

``rng_for(seed, label)`` = ``random.Random(int.from_bytes(HMAC-SHA256(key=seed,
msg=label).digest(), "big"))`` with seed and label UTF-8 encoded. Labels:

- ``"first-ruler"``: ``randrange(player_count)`` is the first Ruler;
- ``"edict-deck"``: ``shuffle`` of the variant's edict ids in catalog order;
- ``"deal:<hand number>"``: ``shuffle`` of the 36 card ids in id order (B1..B9, M1..,
  O1.., S1..S9); then seat ``k`` receives ``cards[k*h:(k+1)*h]`` with ``h = 36 // n``.
"""

from __future__ import annotations

import hashlib
import hmac
import random

from engine.cards import DECK_SIZE
from engine.indulgence.edicts import deck_for

DEFAULT_SEED = "indulgence"
"""The seed of ``new_game`` when none is given (the server always passes one)."""


def seed_commitment(seed: str) -> str:
    """The public commitment to a seed: sha256 hex of its UTF-8 bytes."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def rng_for(seed: str, label: str) -> random.Random:
    """A local generator for one labelled random choice of the game."""
    digest = hmac.new(seed.encode("utf-8"), label.encode("utf-8"), hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest, "big"))


def first_ruler(seed: str, player_count: int) -> int:
    """The seat of the first Ruler."""
    return rng_for(seed, "first-ruler").randrange(player_count)


def edict_deck(seed: str, variant: str) -> tuple[int, ...]:
    """The shuffled edict deck (catalog indexes); the row is dealt from its front."""
    deck = list(deck_for(variant))
    rng_for(seed, "edict-deck").shuffle(deck)
    return tuple(deck)


def deal(seed: str, hand_number: int, player_count: int) -> tuple[int, ...]:
    """The card sets dealt to each seat for a hand (hand numbers start at 1)."""
    cards = list(range(DECK_SIZE))
    rng_for(seed, f"deal:{hand_number}").shuffle(cards)
    per_seat = DECK_SIZE // player_count
    hands = []
    for seat in range(player_count):
        mask = 0
        for card in cards[seat * per_seat : (seat + 1) * per_seat]:
            mask |= 1 << card
        hands.append(mask)
    return tuple(hands)
