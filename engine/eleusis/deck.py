"""Cards, decks and every seed derivation of a game (NE-3.3, E03, E04, E34, NE-29.3.3).

A *card* is an int ``face * MAX_DECKS + copy - 1``: face 0..51 as in
:mod:`engine.eleusis.faces`, copy 1..6. So sorting cards gives the *card order* of
NE-29.3.1 (rank A..K, then suit clubs..spades, then copy). Its public id is ``"QH.1"``.

Derivations (NE-29.3.3). HMAC is HMAC-SHA256 with UTF-8 text as key and message;
``U(key, label, k)`` is the first 8 bytes of HMAC(key, label), big-endian, mod k.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Sequence

from engine.eleusis.faces import FACE_COUNT, FACE_IDS, FACE_INDEX, RANK

MAX_DECKS = 6
"""At most six decks in a round (E03)."""
LOW_STOCK = 4
"""A deck is added as soon as a card leaves the stock and this many or fewer remain (E03)."""
BASE_DECKS = 2
DECK_SIZE = FACE_COUNT


def card_of(face: int, copy: int) -> int:
    return face * MAX_DECKS + copy - 1


def face_of(card: int) -> int:
    return card // MAX_DECKS


def copy_of(card: int) -> int:
    return card % MAX_DECKS + 1


def rank_of(card: int) -> int:
    return RANK[face_of(card)]


def card_id(card: int) -> str:
    """``"QH.1"`` (NE-3.3)."""
    return f"{FACE_IDS[face_of(card)]}.{copy_of(card)}"


def card_ids(cards: Iterable[int]) -> list[str]:
    return [card_id(c) for c in cards]


def parse_card(text: str) -> int:
    """The card of an id such as ``"QH.1"``; ``ValueError`` if it is not one."""
    face_text, dot, copy_text = text.partition(".")
    face = FACE_INDEX.get(face_text)
    if not dot or face is None or not copy_text.isdigit() or copy_text.startswith("0"):
        raise ValueError(f"{text!r} is not a card id (examples: 'QH.1', '10S.2').")
    copy = int(copy_text)
    if not 1 <= copy <= MAX_DECKS:
        raise ValueError(f"{text!r}: the copy number is 1 to {MAX_DECKS}.")
    return card_of(face, copy)


def deck_cards(copy: int) -> list[int]:
    """The 52 cards of one deck (copy number ``copy``), in card order."""
    return [card_of(face, copy) for face in range(FACE_COUNT)]


def decks_needed(hand_size: int, scientists: int) -> int:
    """E03: two decks, plus one per 52 cards (or part) by which hand size x scientists + 5
    exceeds 104; at most six."""
    over = hand_size * scientists + 5 - BASE_DECKS * DECK_SIZE
    extra = -(-over // DECK_SIZE) if over > 0 else 0
    return min(MAX_DECKS, BASE_DECKS + extra)


# --- NE-29.3.3 derivations ----------------------------------------------------------


def hmac_bytes(key: str, message: str) -> bytes:
    return hmac.new(key.encode("utf-8"), message.encode("utf-8"), hashlib.sha256).digest()


def uniform(key: str, label: str, k: int) -> int:
    """U(key, label, k) of NE-29.3.3."""
    if k < 1:
        raise ValueError("U needs k >= 1")
    return int.from_bytes(hmac_bytes(key, label)[:8], "big") % k


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def seed_commitment(seed: str) -> str:
    """SHA-256 of the game seed's text (api.md)."""
    return sha256_hex(seed)


def round_seed(game_seed: str, number: int) -> str:
    """Round ``number``'s seed (1, 2, ...): hex of HMAC(game seed, "eleusis/round/" + r)."""
    return hmac_bytes(game_seed, f"eleusis/round/{number}").hex()


def round_seed_commitment(seed_hex: str) -> str:
    return sha256_hex(seed_hex)


def first_dealer(game_seed: str, player_count: int) -> int:
    """E04: U(game seed, "eleusis/first-dealer", n)."""
    return uniform(game_seed, "eleusis/first-dealer", player_count)


def shuffle(seed_hex: str, label: str, cards: Sequence[int]) -> tuple[int, ...]:
    """The shuffle labelled ``label`` of a list in card order (item 0 is the top): for i
    from its length - 1 down to 1, swap items i and U(round seed, label + "/" + i, i + 1)."""
    items = list(cards)
    for i in range(len(items) - 1, 0, -1):
        j = uniform(seed_hex, f"{label}/{i}", i + 1)
        items[i], items[j] = items[j], items[i]
    return tuple(items)


def initial_stock(seed_hex: str, decks: int) -> tuple[int, ...]:
    """The shuffle "stock" of every card of copies 1..D, in card order."""
    return shuffle(seed_hex, "stock", sorted(c for d in range(1, decks + 1) for c in deck_cards(d)))


def added_deck(seed_hex: str, copy: int) -> tuple[int, ...]:
    """The shuffle "deck/" + d of the 52 cards of copy d (put beneath the stock, E03)."""
    return shuffle(seed_hex, f"deck/{copy}", deck_cards(copy))


def choice_index(seed_hex: str, seq: int, k: int) -> int:
    """A random choice among k right cards in card order (E15, NE-27.4)."""
    return uniform(seed_hex, f"choice/{seq}", k)
