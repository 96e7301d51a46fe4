"""The fast path: random playouts on bit sets, without validation.

For bots (Monte Carlo playouts from a real or determinized state) and the benchmark.
It shares the scoring code with the validated rules (:mod:`.settlement`: early end,
ties, settlement); the trick winner is the largest :func:`trick_key`, and
``hand_decided`` is only asked where ``settlement.may_decide`` allows. Tests play
thousands of hands through both paths and compare them (docs/engine.md "The fast
path").

Every choice is uniform over the legal actions, drawn with ``rng.random()`` (faster
than ``randrange``): following from a table of the led family's held cards, "any card"
from the bit set or, in ``random_game``, from the seat's dealt stack (its cards in the
deal's random order: exactly uniform, see ``_play_hand``). So the same ``rng`` does not
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
from engine.indulgence.edicts import CATALOG, EDICT_INDEX, Edict, deck_for
from engine.indulgence.settlement import (
    Progress,
    hand_context,
    hand_decided,
    pending_tie,
    settle,
    winner_by_florins,
)
from engine.indulgence.start import STARTING_FLORINS, refill_row
from engine.indulgence.state import Phase, Settlement, State

Log = list[tuple[int, JsonDict]]

# _ORDERS[n][leader]: the seats of a trick in play order.
_ORDERS = {
    n: tuple(tuple((leader + k) % n for k in range(n)) for leader in range(n)) for n in (3, 4)
}
# _FOLLOWERS[n][leader]: the seats after the leader, in play order.
_FOLLOWERS = {n: tuple(order[1:] for order in _ORDERS[n]) for n in (3, 4)}
_BITS = tuple(1 << c for c in range(DECK_SIZE))
# _FOLLOW_BITS[cards of one family]: those cards as a tuple of one-bit sets.
_FOLLOW_BITS = {
    chunk << 9 * f: tuple(1 << 9 * f + r for r in range(9) if chunk >> r & 1)
    for f in range(4)
    for chunk in range(1, 512)
}
# _FAMILY_OF_BIT[1 << card]: the card set of the card's family.
_FAMILY_OF_BIT = {1 << c: FAMILY_MASKS[c // 9] for c in range(DECK_SIZE)}
# _RING_KEYS[1 << card]: the key of the card played with the ring (see trick_key).
_RING_KEYS = {1 << c: 1 << c // 9 * 9 + 9 for c in range(DECK_SIZE)}
_TRUMP_SHIFT = 37
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
        "stacks",
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
        stacks: list[list[int]] | None = None,
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
        # Per seat, its cards as one-bit sets in uniformly random order, or None: see
        # _play_hand.
        self.stacks = stacks
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


def trick_key(card: int, ring: bool, led_mask: int, trump_mask: int) -> int:
    """The fast path's rank of a card in a trick: the winner plays the largest key.

    A card of the led family: its one-bit set (higher rank, larger bit), or with the
    ring ``1 << (9 * family + 9)``, the bit a "10" of its family would have. A trump
    when another family was led: that key shifted left by 37, above every led-family
    key. Any other card: 0 (it cannot win; the lead's key is always positive). Mirrors
    ``settlement.trick_winner`` (a test checks both on random tricks).
    """
    bit = 1 << card
    key = _RING_KEYS[bit] if ring else bit
    if bit & led_mask:
        return key
    return key << _TRUMP_SHIFT if bit & trump_mask else 0


def _trick_so_far(
    plays: Sequence[tuple[int, int, bool]], trump_mask: int
) -> tuple[int, int, int, int]:
    """(cards, led family's cards, best key, its seat) of a trick begun before a playout."""
    led_mask = FAMILY_MASKS[plays[0][1] // 9]
    cards = 0
    best_key = 0
    best_seat = plays[0][0]
    for seat, card, ring in plays:
        cards |= 1 << card
        key = trick_key(card, ring, led_mask, trump_mask)
        if key > best_key:
            best_key, best_seat = key, seat
    return cards, led_mask, best_key, best_seat


def _last_families(edicts: Sequence[Edict]) -> tuple[tuple[int, int], ...]:
    """(family, its card set) of every "last X" edict in force."""
    return tuple(
        (f, FAMILY_MASKS[f]) for e in edicts if e.kind == "last_of_family" for f in e.family_idx
    )


def _play_hand(h: _Hand, random: Callable[[], float], log: Log | None) -> Settlement:
    """Play the hand out uniformly at random from wherever it stands, and settle it
    (``h`` is left holding the end of the hand; ``h.hands`` stays as it was).

    With ``h.stacks`` (per seat, its cards in uniformly random order), a pick of any
    card of the whole hand pops the stack down to its top card still held. That card is
    uniform over the held cards, and the held cards' order stays uniformly random: the
    other picks (following from the table, the restricted first lead) never look at the
    order, and taking the first held card of a uniform order leaves the rest uniform.
    """
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
    # hands stay as they were when the playout began: a seat holds hands[seat] & remaining
    # (cards played in the current trick belong to other seats' hands).
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
        bits_of = _FOLLOW_BITS
        family_of = _FAMILY_OF_BIT
        ring_keys = _RING_KEYS
        restricted = ctx.restricted_lead
        sinner = -1 if h.sinner is None else h.sinner
        trump_mask = 0 if h.trump is None else FAMILY_MASKS[h.trump]
        trump_shift = _TRUMP_SHIFT
        ring_used = h.ring_used
        ring_bit = 0  # the card the sinner ringed during the playout (for the log)
        leader = h.leader
        first_to_three = h.first_to_three
        orders = _ORDERS[n]
        followers_of = _FOLLOWERS[n]
        tracked = _last_families(ctx.edicts) if ctx.needs_last_takers else ()
        # hand_decided is asked only where settlement.may_decide allows (inlined below).
        check_cards = 0 if ctx.never_early else ctx.check_cards
        check_tricks = 0 if ctx.never_early else ctx.check_tricks
        need_gone = ctx.need_gone
        need_three = ctx.need_three
        sin_cards = ctx.sin_cards
        stacks = h.stacks
        done = len(winners)
        resume: Sequence[tuple[int, int, bool]] = h.plays  # a trick begun before the playout
        while True:
            # The trick: its cards so far, the led family's card set, and the best key
            # with its seat (keys: see trick_key; the winner has the largest).
            if resume:
                cards, led_mask, best_key, best_seat = _trick_so_far(resume, trump_mask)
                seats = orders[leader][len(resume) :]
                followers = seats
                resume = ()
            else:
                # The lead: any card, but in the first trick no card of a named family
                # unless the leader holds nothing else.
                hand = hands[leader] & remaining
                m = hand if done else (hand & ~restricted or hand)
                if stacks is not None and m == hand:
                    # Any card of the hand: the top card of its stack still held.
                    stack = stacks[leader]
                    bit = stack.pop()
                    while not bit & hand:
                        bit = stack.pop()
                    # The sinner may also put the ring on it (a fair coin).
                    ring = leader == sinner and done and not ring_used and random() < 0.5
                else:
                    if leader == sinner and done and not ring_used:
                        # The sinner may also put the ring on any playable card.
                        i = int(random() * 2 * m.bit_count())
                        ring = i & 1 == 1
                        i >>= 1
                    else:
                        i = int(random() * m.bit_count())
                        ring = False
                    while i:
                        m &= m - 1
                        i -= 1
                    bit = m & -m
                cards = bit
                led_mask = family_of[bit]
                if ring:
                    ring_used = True
                    ring_bit = bit
                    best_key = ring_keys[bit]
                else:
                    best_key = bit
                best_seat = leader
                seats = orders[leader]
                followers = followers_of[leader]
            for seat in followers:
                hand = hands[seat] & remaining
                chunk = hand & led_mask
                if chunk and seat != sinner:
                    # Following the led family (the common case): a card from a table.
                    choices = bits_of[chunk]
                    bit = choices[int(random() * len(choices))]
                    cards |= bit
                    if bit > best_key:
                        best_key = bit
                        best_seat = seat
                    continue
                if stacks is not None and not chunk:
                    # No card of the led family: any card (see the lead).
                    stack = stacks[seat]
                    bit = stack.pop()
                    while not bit & hand:
                        bit = stack.pop()
                    ring = seat == sinner and done and not ring_used and random() < 0.5
                else:
                    m = chunk or hand
                    if seat == sinner and done and not ring_used:
                        i = int(random() * 2 * m.bit_count())
                        ring = i & 1 == 1
                        i >>= 1
                    else:
                        i = int(random() * m.bit_count())
                        ring = False
                    while i:
                        m &= m - 1
                        i -= 1
                    bit = m & -m
                cards |= bit
                if ring:
                    ring_used = True
                    ring_bit = bit
                    key = ring_keys[bit]
                else:
                    key = bit
                if not bit & led_mask:
                    key = key << trump_shift if bit & trump_mask else 0
                if key > best_key:
                    best_key = key
                    best_seat = seat
            if log is not None:
                for seat in seats:
                    bit = cards & hands[seat]
                    log.append(
                        (
                            seat,
                            {
                                "type": "play",
                                "card": CARD_IDS[bit.bit_length() - 1],
                                "indulgence": bit == ring_bit,
                            },
                        )
                    )
            winner = best_seat
            remaining &= ~cards
            taken[winner] |= cards
            counts[winner] += 1
            winners.append(winner)
            if first_to_three is None and counts[winner] == 3:
                first_to_three = winner
            for family, fmask in tracked:
                if cards & fmask and not remaining & fmask:
                    last_takers[family] = winner
            left = total - done - 1
            if not left or (
                (cards & check_cards or check_tricks >> done & 1)
                and not remaining & need_gone
                and (first_to_three is not None or not need_three)
                and (winner != sinner or not remaining & sin_cards)
            ):
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
            done += 1
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


def _fast_deal(random: Callable[[], float], n: int) -> list[list[int]]:
    """A uniformly random deal: per seat, its cards (one-bit sets) in random order."""
    c = sorted(_BITS, key=lambda _bit: random())
    if n == 4:
        return [c[0:9], c[9:18], c[18:27], c[27:36]]
    return [c[0:12], c[12:24], c[24:36]]


def _shuffled_hands(hands: Sequence[int], random: Callable[[], float]) -> list[list[int]]:
    """Per seat, the cards of ``hands`` (one-bit sets) in uniformly random order."""
    return [sorted([b for b in _BITS if b & hand], key=lambda _bit: random()) for hand in hands]


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
        deck = tuple(sorted(deck_for(variant), key=lambda _edict: random_()))
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
        if seed is None:
            stacks = _fast_deal(random_, n)
            hands = [sum(stack) for stack in stacks]
        else:
            hands = list(shuffle.deal(seed, number, n))
            stacks = _shuffled_hands(hands, random_)
        hand = _Hand(n, ruler, row, bulls[ruler], florins, hands, stacks)
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
