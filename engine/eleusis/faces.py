"""The 52 faces of New Eleusis (NE-3) and their attributes, as tables indexed by face.

Face ``f`` (0..51) is rank ``f // 4 + 1`` (A=1 .. K=13) and suit ``f % 4`` (clubs,
diamonds, hearts, spades), so face order is the card order of NE-29.3.1 (rank A..K, then
suit clubs..spades). A face's public id is its rank code and suit letter: ``"QH"``,
``"10S"``. Copy numbers (``"QH.1"``) belong to the game, never to the rule (NE-3.3).
"""

from __future__ import annotations

SUITS: tuple[str, ...] = ("clubs", "diamonds", "hearts", "spades")
SUIT_INDEX: dict[str, int] = {name: i for i, name in enumerate(SUITS)}
SUIT_SYMBOLS: dict[str, str] = {"♣": "clubs", "♦": "diamonds", "♥": "hearts", "♠": "spades"}
COLORS: tuple[str, ...] = ("red", "black")
COLOR_INDEX: dict[str, int] = {name: i for i, name in enumerate(COLORS)}
RED, BLACK = 0, 1
RANK_CODES: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_LETTERS = "CDHS"
FACE_COUNT = 52
PRIME_RANKS = frozenset({2, 3, 5, 7, 11, 13})

FACES: range = range(FACE_COUNT)
FACE_IDS: tuple[str, ...] = tuple(
    RANK_CODES[f // 4] + SUIT_LETTERS[f % 4] for f in range(FACE_COUNT)
)
FACE_INDEX: dict[str, int] = {face_id: f for f, face_id in enumerate(FACE_IDS)}

SUIT_COLOR: tuple[int, ...] = (BLACK, RED, RED, BLACK)
"""The colour of each suit (clubs and spades black, diamonds and hearts red)."""

RANK: tuple[int, ...] = tuple(f // 4 + 1 for f in FACES)
SUIT: tuple[int, ...] = tuple(f % 4 for f in FACES)
SUITNUM: tuple[int, ...] = tuple(f % 4 + 1 for f in FACES)
COLOR: tuple[int, ...] = tuple(SUIT_COLOR[f % 4] for f in FACES)
IS_RED: tuple[bool, ...] = tuple(c == RED for c in COLOR)
IS_BLACK: tuple[bool, ...] = tuple(c == BLACK for c in COLOR)
IS_EVEN: tuple[bool, ...] = tuple(r % 2 == 0 for r in RANK)
IS_ODD: tuple[bool, ...] = tuple(r % 2 == 1 for r in RANK)
IS_FACE: tuple[bool, ...] = tuple(r >= 11 for r in RANK)
IS_NUMBER: tuple[bool, ...] = tuple(r <= 10 for r in RANK)
IS_PRIME: tuple[bool, ...] = tuple(r in PRIME_RANKS for r in RANK)

ATTRIBUTES: dict[str, tuple[str, tuple[int, ...] | tuple[bool, ...]]] = {
    "rank": ("int", RANK),
    "suit": ("suit", SUIT),
    "suitnum": ("int", SUITNUM),
    "color": ("color", COLOR),
    "red": ("bool", IS_RED),
    "black": ("bool", IS_BLACK),
    "even": ("bool", IS_EVEN),
    "odd": ("bool", IS_ODD),
    "face": ("bool", IS_FACE),
    "number": ("bool", IS_NUMBER),
    "prime": ("bool", IS_PRIME),
}
"""Card attributes of NE-21.4: name -> (ERL type, value per face)."""


def face_of(rank: int, suit: int) -> int:
    """The face of a rank (1..13) and suit index (0..3)."""
    return (rank - 1) * 4 + suit


def parse_face(text: str) -> int:
    """A face from ``"QH"``, ``"10S"``, ``"Q♥"`` or ``"10♠"`` (raises ``ValueError``)."""
    text = text.strip()
    if text and text[-1] in SUIT_SYMBOLS:
        text = text[:-1] + SUIT_LETTERS[SUIT_INDEX[SUIT_SYMBOLS[text[-1]]]]
    face = FACE_INDEX.get(text.upper())
    if face is None:
        raise ValueError(f"{text!r} is not a card face (examples: 'QH', '10S', 'Q♥').")
    return face


def face_symbol(face: int) -> str:
    """``"Q♥"`` for the face ``QH``."""
    return RANK_CODES[face // 4] + "♣♦♥♠"[face % 4]
