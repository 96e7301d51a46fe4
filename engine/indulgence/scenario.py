"""Build a hand with chosen cards: for scenario tests and for trying positions.

``state_with_hands`` returns a state at the start of a hand (the Ruler to choose an
edict) whose deal, row, Ruler and florins are given instead of derived from the seed.
Everything after that goes through the ordinary ``apply``/``advance``; later hands are
dealt from the seed as usual. Such a state's record does not re-derive from its seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.cards import CARD_INDEX, DECK_SIZE, FULL_DECK
from engine.indulgence.edicts import EDICT_INDEX, deck_for
from engine.indulgence.start import new_game, start_hand
from engine.indulgence.state import State


def state_with_hands(
    hands: Sequence[Iterable[str]],
    *,
    variant: str = "basic",
    ruler: int = 0,
    row: Sequence[str] = ("any-borgia", "last-borgia", "sixes"),
    deck_rest: Sequence[str] | None = None,
    florins: Sequence[int] | None = None,
    papal_bulls: Sequence[bool] | None = None,
    hand_number: int | None = None,
    seed: str = "scenario",
    fill: bool = False,
) -> State:
    """A state where seat ``k`` holds ``hands[k]`` (card ids) and ``ruler`` chooses from ``row``.

    - ``hands`` must deal all 36 cards, ``36 // n`` each, unless ``fill``: then the
      cards not named go, in id order, to the lowest seats that still have room.
    - ``deck_rest``: the undrawn edict deck after the row (default: the variant's other
      edicts in catalog order; ``()`` for an exhausted deck).
    - ``hand_number``: default ``ruler + 1`` (round 1, the first Ruler being seat 0);
      the first Ruler is set so that ``ruler`` rules this hand.
    """
    n = len(hands)
    per_seat = DECK_SIZE // n
    masks = []
    seen = 0
    for cards in hands:
        mask = 0
        for card_id in cards:
            bit = 1 << CARD_INDEX[card_id]
            if (mask | seen) & bit:
                raise ValueError(f"card {card_id} is dealt twice")
            mask |= bit
        seen |= mask
        masks.append(mask)
    if fill:
        rest = FULL_DECK & ~seen
        for seat in range(n):
            while masks[seat].bit_count() < per_seat and rest:
                low = rest & -rest
                masks[seat] |= low
                rest ^= low
        seen = FULL_DECK & ~rest
    if seen != FULL_DECK or any(m.bit_count() != per_seat for m in masks):
        raise ValueError(f"the hands must deal all 36 cards, {per_seat} to each seat")
    row_ids = tuple(EDICT_INDEX[e] for e in row)
    if deck_rest is None:
        rest_ids = tuple(e for e in deck_for(variant) if e not in row_ids)
    else:
        rest_ids = tuple(EDICT_INDEX[e] for e in deck_rest)
    number = ruler + 1 if hand_number is None else hand_number
    game = new_game(n, variant, seed)
    game = game._replace(
        edict_deck=row_ids + rest_ids,
        first_ruler=(ruler - number + 1) % n,
        florins=game.florins if florins is None else tuple(florins),
        papal_bulls=game.papal_bulls if papal_bulls is None else tuple(papal_bulls),
        row=(),
        in_force=(),
        deck_drawn=0,
    )
    state = start_hand(game, number, tuple(masks))
    return state._replace(row=row_ids, deck_drawn=len(row_ids))
