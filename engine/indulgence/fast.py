"""The fast path: random playouts on bit sets, without validation.

For bots (Monte Carlo playouts from a real or determinized state) and the benchmark.
It shares the scoring code with the validated rules (:mod:`.settlement`: early end,
ties, settlement; the trick winner uses the same key as ``settlement.trick_winner``),
and a test plays thousands of hands through both paths and compares them.

Random choices are uniform over the legal actions in ``legal_actions`` order, but
drawn with ``rng.random()`` (faster than ``randrange``), so the same ``rng`` does not
make the same choices as a bot calling ``rng.choice`` on the validated path; pass a
``log`` list to get the actions taken and replay them there.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import NamedTuple

from engine.cards import CARD_IDS, DECK_SIZE, FAMILIES, FAMILY_MASKS
from engine.core import JsonDict
from engine.indulgence import shuffle
from engine.indulgence.edicts import CATALOG, EDICT_INDEX, deck_for
from engine.indulgence.rules import STARTING_FLORINS, refill_row
from engine.indulgence.settlement import (
    Progress,
    hand_context,
    hand_decided,
    pending_tie,
    settle,
    winner_by_florins,
)
from engine.indulgence.state import Phase, Settlement, State

Log = list[tuple[int, JsonDict]]

# _ORDERS[n][leader]: the seats of a trick in play order.
_ORDERS = {
    n: tuple(tuple((leader + k) % n for k in range(n)) for leader in range(n)) for n in (3, 4)
}
# _RANKS9[chunk]: the rank offsets (0..8) set in a 9-bit family chunk.
_RANKS9 = tuple(tuple(r for r in range(9) if chunk >> r & 1) for chunk in range(512))
_BITS = tuple(1 << c for c in range(DECK_SIZE))
_ANY_TRUMP = EDICT_INDEX["any-trump"]
_CHOOSING = Phase.CHOOSING_EDICT
_NAMING = Phase.NAMING_TRUMP
_DECIDING = Phase.SIN_DECISION
_PLAYING = Phase.PLAYING


class HandOutcome(NamedTuple):
    """The end of a hand played out on the fast path."""

    settlement: Settlement
    deltas: tuple[int, ...]  # florins_after - florins before, per seat
    trick_winners: tuple[int, ...]  # every trick of the hand, including those before the playout
    ended_early: bool
    in_force: tuple[int, ...]
    sinner: int | None
    papal_bull: bool
    trump: int | None


class GameOutcome(NamedTuple):
    florins: tuple[int, ...]
    winner: int
    reason: str  # "rounds_complete" | "bankruptcy" | "papal_bull_sin"
    hands_played: int
    tricks_played: int


class _Hand:
    """A hand in progress, mutable, in plain lists and ints."""

    __slots__ = (
        "bull_available",
        "counts",
        "decided",
        "first_to_three",
        "florins",
        "hands",
        "in_force",
        "last_takers",
        "leader",
        "n",
        "papal_bull",
        "phase",
        "plays",
        "ring_used",
        "row",
        "ruler",
        "sinner",
        "taken",
        "ties",
        "trump",
        "winners",
    )

    def __init__(
        self,
        n: int,
        ruler: int,
        row: tuple[int, ...],
        bull_available: bool,
        florins: tuple[int, ...],
        hands: Sequence[int],
    ) -> None:
        self.n = n
        self.ruler = ruler
        self.row = row
        self.bull_available = bull_available
        self.florins = florins
        self.phase = Phase.CHOOSING_EDICT
        self.in_force: tuple[int, ...] = ()
        self.papal_bull = False
        self.trump: int | None = None
        self.decided = 0  # sin decisions made so far
        self.sinner: int | None = None
        self.ring_used = False
        self.leader = ruler
        self.plays: list[tuple[int, int, bool]] = []
        self.winners: list[int] = []
        self.hands = list(hands)
        self.taken = [0] * n
        self.counts = [0] * n
        self.first_to_three: int | None = None
        self.last_takers: list[int | None] = [None, None, None, None]
        self.ties: list[tuple[int, int, int]] = []


def _from_state(state: State, hands: Sequence[int] | None) -> _Hand:
    n = state.player_count
    h = _Hand(
        n,
        state.ruler,
        state.row,
        state.papal_bulls[state.ruler],
        state.florins,
        hands if hands is not None else state.hands,
    )
    h.phase = state.phase
    h.in_force = state.in_force
    h.papal_bull = state.papal_bull
    h.trump = state.trump
    h.decided = len(state.sin_decisions)
    h.sinner = state.sinner
    h.ring_used = state.ring_used
    h.leader = state.leader
    h.plays = list(state.plays)
    h.winners = [t.winner for t in state.tricks]
    h.taken = list(state.taken)
    h.counts = list(state.trick_counts)
    h.first_to_three = state.first_to_three
    h.last_takers = list(state.last_takers)
    h.ties = list(state.tie_choices)
    return h


def _play_hand(h: _Hand, random: Callable[[], float], log: Log | None) -> Settlement:
    """Play the hand out uniformly at random from wherever it stands, and settle it
    (``h`` is left holding the end of the hand)."""
    n = h.n
    ruler = h.ruler
    phase = h.phase
    if phase is _CHOOSING:
        options = len(h.row) + (1 if h.bull_available else 0)
        i = int(random() * options)
        if i < len(h.row):
            h.in_force = (h.row[i],)
            if log is not None:
                log.append((ruler, {"type": "choose_edict", "edict": CATALOG[h.row[i]].id}))
        else:
            h.in_force = h.row
            h.papal_bull = True
            if log is not None:
                log.append((ruler, {"type": "papal_bull"}))
        phase = _NAMING
    if phase is _NAMING:
        if _ANY_TRUMP in h.in_force:
            h.trump = int(random() * 4)
            if log is not None:
                log.append((ruler, {"type": "name_trump", "family": FAMILIES[h.trump]}))
        phase = _DECIDING
    if phase is _DECIDING:
        for k in range(h.decided + 1, n):
            seat = (ruler + k) % n
            sins = random() >= 0.5
            if log is not None:
                log.append((seat, {"type": "sin" if sins else "pass"}))
            if sins:
                h.sinner = seat
                break
        h.leader = ruler if h.sinner is None else h.sinner
        phase = _PLAYING
    ctx = hand_context(n, ruler, h.sinner, h.in_force, h.papal_bull, h.trump)
    hands = h.hands
    taken = h.taken
    counts = h.counts
    last_takers = h.last_takers
    winners = h.winners
    total = DECK_SIZE // n
    remaining = 0
    for hand in hands:
        remaining |= hand
    if phase is _PLAYING:
        fm = FAMILY_MASKS
        restricted = ctx.restricted_lead
        sinner = -1 if h.sinner is None else h.sinner
        trump9 = -9 if h.trump is None else h.trump * 9
        ring_used = h.ring_used
        leader = h.leader
        first_to_three = h.first_to_three
        orders = _ORDERS[n]
        track_last = ctx.needs_last_takers
        never_early = ctx.never_early
        resume: Sequence[tuple[int, int, bool]] = h.plays  # a trick begun before the playout
        while True:
            done = len(winners)
            # The trick so far: cards played, led family (x9), best key and its seat. The
            # key mirrors settlement.trick_winner: trump 20+rank, led family 10+rank, a
            # ringed card ranks 9 (a 10); the agreement test checks both stay equal.
            cards = 0
            led9 = 0
            best_key = -1
            best_seat = leader
            for seat, card, ring in resume:
                if not cards:
                    led9 = card // 9 * 9
                cards |= 1 << card
                fam9 = card // 9 * 9
                rank = 9 if ring else card - fam9
                key = 20 + rank if fam9 == trump9 else (10 + rank if fam9 == led9 else -1)
                if key > best_key:
                    best_key, best_seat = key, seat
            led_base = 20 if led9 == trump9 else 10
            for seat in orders[leader][len(resume) :]:
                hand = hands[seat]
                chunk = (hand >> led9) & 511 if cards else 0
                if chunk and seat != sinner:
                    # Following the led family (the common case): pick a rank from a table.
                    ranks = _RANKS9[chunk]
                    rank = ranks[int(random() * len(ranks))]
                    card = led9 + rank
                    bit = 1 << card
                    ring = False
                    key = led_base + rank
                else:
                    if chunk:
                        m = chunk << led9
                    elif cards or done:
                        m = hand
                    else:
                        m = hand & ~restricted or hand
                    ring = False
                    if seat == sinner and done and not ring_used:
                        # The sinner may also put the ring on any playable card.
                        i = int(random() * 2 * m.bit_count())
                        ring = ring_used = i & 1 == 1
                        i >>= 1
                    else:
                        i = int(random() * m.bit_count())
                    while i:
                        m &= m - 1
                        i -= 1
                    bit = m & -m
                    card = bit.bit_length() - 1
                    fam9 = card // 9 * 9
                    if not cards:
                        led9 = fam9
                        led_base = 20 if led9 == trump9 else 10
                    rank = 9 if ring else card - fam9
                    key = 20 + rank if fam9 == trump9 else (led_base + rank if fam9 == led9 else -1)
                hands[seat] = hand ^ bit
                cards |= bit
                if key > best_key:
                    best_key = key
                    best_seat = seat
                if log is not None:
                    log.append((seat, {"type": "play", "card": CARD_IDS[card], "indulgence": ring}))
            resume = ()
            winner = best_seat
            remaining &= ~cards
            taken[winner] |= cards
            counts[winner] += 1
            winners.append(winner)
            if first_to_three is None and counts[winner] == 3:
                first_to_three = winner
            if track_last:
                for family in range(4):
                    if cards & fm[family] and not remaining & fm[family]:
                        last_takers[family] = winner
            left = total - done - 1
            if not left or not never_early:
                progress = Progress(
                    taken,
                    remaining,
                    counts,
                    left,
                    winners[0],
                    winner if not left else None,
                    first_to_three,
                    last_takers,
                )
                if hand_decided(ctx, progress):
                    break
            leader = winner
        h.first_to_three = first_to_three
    tricks_left = total - len(winners)
    progress = Progress(
        taken,
        remaining,
        counts,
        tricks_left,
        winners[0] if winners else None,
        winners[-1] if winners and not tricks_left else None,
        h.first_to_three,
        last_takers,
    )
    ties = h.ties
    while ctx.has_most:
        tie = pending_tie(ctx, progress, ties)
        if tie is None:
            break
        family, chooser, tied = tie
        chosen = tied[int(random() * len(tied))]
        ties.append((family, chooser, chosen))
        if log is not None:
            log.append(
                (chooser, {"type": "resolve_tie", "family": FAMILIES[family], "seat": chosen})
            )
    return settle(ctx, progress, ties, h.florins)


def playout(
    state: State, rng: random.Random, hands: Sequence[int] | None = None, log: Log | None = None
) -> HandOutcome | None:
    """Play the current hand of ``state`` to its end at random and settle it.

    ``hands`` replaces the card sets still held (a bot's determinization: the same
    number of cards per seat as in ``state``, disjoint, the unseen cards). Returns None
    when the game is over. A hand already waiting to be settled is just settled.
    """
    if state.phase is Phase.FINISHED:
        return None
    h = _from_state(state, hands)
    settlement = _play_hand(h, rng.random, log)
    return HandOutcome(
        settlement,
        tuple([a - b for a, b in zip(settlement.florins_after, state.florins, strict=True)]),
        tuple(h.winners),
        len(h.winners) < DECK_SIZE // h.n,
        h.in_force,
        h.sinner,
        h.papal_bull,
        h.trump,
    )


def _fast_deal(random: Callable[[], float], n: int) -> list[int]:
    """A uniformly random deal: the cards (as one-bit sets) sorted by random keys."""
    cards = sorted(_BITS, key=lambda _bit: random())
    per_seat = DECK_SIZE // n
    return [sum(cards[k * per_seat : (k + 1) * per_seat]) for k in range(n)]


def random_game(
    player_count: int,
    variant: str,
    rng: random.Random,
    seed: str | None = None,
    log: Log | None = None,
) -> GameOutcome:
    """A whole game of uniformly random play on the fast path.

    With ``seed``, the first Ruler, the edict deck and every deal derive from it exactly
    as in ``new_game`` (so ``replay(player_count, variant, seed, log)`` reproduces the
    game); without, they come from ``rng`` (faster).
    """
    random_ = rng.random
    n = player_count
    if seed is None:
        deck_list = list(deck_for(variant))
        rng.shuffle(deck_list)
        deck = tuple(deck_list)
        first = int(random_() * n)
    else:
        deck = shuffle.edict_deck(seed, variant)
        first = shuffle.first_ruler(seed, n)
    florins = (STARTING_FLORINS,) * n
    bulls = [variant == "expert"] * n
    row: tuple[int, ...] = ()
    in_force: tuple[int, ...] = ()
    drawn = 0
    tricks = 0
    for number in range(1, 3 * n + 1):
        row, drawn = refill_row(row, in_force, deck, drawn)
        ruler = (first + number - 1) % n
        hands = _fast_deal(random_, n) if seed is None else shuffle.deal(seed, number, n)
        hand = _Hand(n, ruler, row, bulls[ruler], florins, hands)
        settlement = _play_hand(hand, random_, log)
        if hand.papal_bull:
            bulls[ruler] = False
        in_force = hand.in_force
        florins = settlement.florins_after
        tricks += len(hand.winners)
        if settlement.papal_bull_win:
            assert hand.sinner is not None
            return GameOutcome(florins, hand.sinner, "papal_bull_sin", number, tricks)
        if settlement.bankruptcy:
            return GameOutcome(
                florins, winner_by_florins(florins, ruler), "bankruptcy", number, tricks
            )
    return GameOutcome(florins, winner_by_florins(florins, ruler), "rounds_complete", 3 * n, tricks)
