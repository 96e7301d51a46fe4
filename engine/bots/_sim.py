"""What a bot may infer from its view, determinizations, and a fast hand simulator.

- :class:`Observation` and :func:`sample_hidden` (in :mod:`engine.bots._observe`,
  with the move codes): what a seat's view tells, and deals of the unseen cards
  consistent with it.
- :class:`SimHand` is one hand in plain ints and lists: legal moves as small ints,
  ``step``, a cheap rule-based playout policy and the settlement. It reuses the
  engine's scoring code (:mod:`engine.indulgence.settlement`: trick winner, early end,
  ties, settlement); tests/bots check it against the validated engine.

The engine's own fast path (:func:`engine.indulgence.fast.playout`) plays uniformly at
random from a full ``State``; ISMCTS needs step-by-step control (a tree, then a
playout policy) from a position rebuilt from a view, hence this module.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine.bots._eval import best_trump, sin_likely
from engine.bots._observe import (
    BULL,
    CHOOSE,
    CHOOSING,
    DECIDING,
    DONE,
    NAMING,
    PASS,
    PLAYING,
    RING,
    SIN,
    TIE,
    TIES,
    TRUMP,
    JsonDict,
    Observation,
    sample_hidden,
)
from engine.cards import (
    DECK_SIZE,
    FAMILY_MASKS,
)
from engine.indulgence.edicts import CATALOG
from engine.indulgence.settlement import (
    HandContext,
    Progress,
    hand_context,
    hand_decided,
    pending_tie,
    settle,
)

PAPAL_WIN_BONUS = 40
"""Reward for a papal-bull sin that wins the whole game (it pays no florins)."""

_BAD_KINDS = frozenset({"any_family", "ranks", "even", "any_trump", "pairs", "last_of_family"})

_ORDERS = {
    n: tuple(tuple((leader + k) % n for k in range(n)) for leader in range(n)) for n in (3, 4)
}


class SimHand:
    """One hand, mutable, from a position (observation + a deal of the hidden cards)."""

    __slots__ = (
        "actor",
        "bad_cards",
        "bull_available",
        "counts",
        "ctx",
        "first_to_three",
        "florins",
        "hands",
        "in_force",
        "last_takers",
        "leader",
        "n",
        "papal_bull",
        "pending",
        "phase",
        "plays",
        "remaining",
        "ring_used",
        "row",
        "ruler",
        "sin_next",
        "sinner",
        "taken",
        "ties",
        "total",
        "trump",
        "winners",
    )

    def __init__(
        self, obs: Observation, hands: Sequence[int], plays: Sequence[tuple[int, int, bool]]
    ) -> None:
        n = obs.n
        self.n = n
        self.ruler = obs.ruler
        self.row = obs.row
        self.bull_available = obs.bulls[obs.ruler]
        self.florins = obs.florins
        self.phase = obs.phase
        self.in_force = obs.in_force
        self.papal_bull = obs.papal_bull
        self.trump = obs.trump
        self.sin_next = (obs.ruler + 1 + obs.sin_decided) % n
        self.sinner = obs.sinner
        self.ring_used = obs.ring_used
        self.leader = obs.leader
        self.plays = list(plays)
        self.winners = list(obs.winners)
        self.hands = list(hands)
        self.taken = list(obs.taken)
        self.counts = list(obs.trick_counts)
        self.first_to_three = obs.first_to_three
        self.last_takers = list(obs.last_takers)
        self.ties = list(obs.tie_choices)
        self.pending = obs.pending_tie
        remaining = 0
        for hand in hands:
            remaining |= hand
        self.remaining = remaining
        self.total = DECK_SIZE // n
        self.ctx: HandContext = obs.ctx
        self.bad_cards = 0  # cards the edicts in force score (the policy avoids or hunts them)
        if self.phase == PLAYING:
            self._start_play()
        self.actor = self._actor()

    # --- stepping ----------------------------------------------------------------------

    def _actor(self) -> int:
        phase = self.phase
        if phase in (CHOOSING, NAMING):
            return self.ruler
        if phase == DECIDING:
            return self.sin_next
        if phase == PLAYING:
            return (self.leader + len(self.plays)) % self.n
        if phase == TIES:
            assert self.pending is not None
            return self.pending[1]
        return -1

    def _start_play(self) -> None:
        self.ctx = hand_context(
            self.n, self.ruler, self.sinner, self.in_force, self.papal_bull, self.trump
        )
        bad = 0
        for edict, mask in zip(self.ctx.edicts, self.ctx.masks, strict=True):
            if edict.kind in _BAD_KINDS:
                bad |= mask
        self.bad_cards = bad

    def legal(self) -> list[int]:
        """The legal move codes of the seat to act."""
        phase = self.phase
        if phase == PLAYING:
            seat = self.actor
            hand = self.hands[seat]
            if self.plays:
                mask = hand & FAMILY_MASKS[self.plays[0][1] // 9] or hand
            elif not self.winners:
                mask = hand & ~self.ctx.restricted_lead or hand
            else:
                mask = hand
            ring = seat == self.sinner and not self.ring_used and bool(self.winners)
            moves = []
            while mask:
                low = mask & -mask
                card = low.bit_length() - 1
                moves.append(card)
                if ring:
                    moves.append(RING + card)
                mask ^= low
            return moves
        if phase == DECIDING:
            return [PASS, SIN]
        if phase == CHOOSING:
            moves = [CHOOSE + e for e in self.row]
            if self.bull_available:
                moves.append(BULL)
            return moves
        if phase == NAMING:
            return [TRUMP + f for f in range(4)]
        if phase == TIES:
            assert self.pending is not None
            return [TIE + s for s in self.pending[2]]
        return []

    def step(self, move: int) -> None:
        """Apply a legal move of the seat to act (not validated)."""
        phase = self.phase
        if phase == PLAYING:
            self._play(self.actor, move)
        elif phase == DECIDING:
            seat = self.sin_next
            if move == SIN:
                self.sinner = seat
                self._open_play(seat)
            else:
                nxt = (seat + 1) % self.n
                if nxt == self.ruler:
                    self._open_play(self.ruler)
                else:
                    self.sin_next = nxt
        elif phase == CHOOSING:
            if move == BULL:
                self.in_force = self.row
                self.papal_bull = True
            else:
                self.in_force = (move - CHOOSE,)
            if any(CATALOG[e].kind == "any_trump" for e in self.in_force):
                self.phase = NAMING
            else:
                self.phase = DECIDING
                self.sin_next = (self.ruler + 1) % self.n
        elif phase == NAMING:
            self.trump = move - TRUMP
            self.phase = DECIDING
            self.sin_next = (self.ruler + 1) % self.n
        elif phase == TIES:
            assert self.pending is not None
            self.ties.append((self.pending[0], self.pending[1], move - TIE))
            self._next_tie()
        self.actor = self._actor()

    def _open_play(self, leader: int) -> None:
        self.phase = PLAYING
        self.leader = leader
        self._start_play()

    def _play(self, seat: int, move: int) -> None:
        ring = move >= RING
        card = move - RING if ring else move
        self.hands[seat] &= ~(1 << card)
        if ring:
            self.ring_used = True
        plays = self.plays
        plays.append((seat, card, ring))
        if len(plays) < self.n:
            return
        # The trick is complete: the same key as settlement.trick_winner.
        led = plays[0][1] // 9
        trump = self.trump
        best_key = -1
        winner = plays[0][0]
        cards = 0
        for s, c, r in plays:
            cards |= 1 << c
            family = c // 9
            if family == trump:
                key = 20 + (9 if r else c % 9)
            elif family == led:
                key = 10 + (9 if r else c % 9)
            else:
                continue
            if key > best_key:
                best_key = key
                winner = s
        self.plays = []
        self.remaining &= ~cards
        self.taken[winner] |= cards
        self.counts[winner] += 1
        self.winners.append(winner)
        if self.first_to_three is None and self.counts[winner] == 3:
            self.first_to_three = winner
        for family in range(4):
            fm = FAMILY_MASKS[family]
            if cards & fm and not self.remaining & fm:
                self.last_takers[family] = winner
        self.leader = winner
        left = self.total - len(self.winners)
        if left and self.ctx.never_early:
            return
        if hand_decided(self.ctx, self._progress()):
            self.pending = None
            self._next_tie()

    def _progress(self) -> Progress:
        left = self.total - len(self.winners)
        winners = self.winners
        return Progress(
            tuple(self.taken),
            self.remaining,
            tuple(self.counts),
            left,
            winners[0] if winners else None,
            winners[-1] if winners and not left else None,
            self.first_to_three,
            tuple(self.last_takers),
        )

    def _next_tie(self) -> None:
        tie = pending_tie(self.ctx, self._progress(), self.ties)
        self.pending = tie
        self.phase = TIES if tie else DONE

    @property
    def done(self) -> bool:
        return self.phase == DONE

    def deltas(self) -> list[float]:
        """Florins won or lost by each seat in this hand (a game-winning papal-bull sin
        also earns :data:`PAPAL_WIN_BONUS`)."""
        settlement = settle(self.ctx, self._progress(), self.ties, self.florins)
        out = [float(a - b) for a, b in zip(settlement.florins_after, self.florins, strict=True)]
        if settlement.papal_bull_win and self.sinner is not None:
            out[self.sinner] += PAPAL_WIN_BONUS
        return out

    # --- the playout policy ------------------------------------------------------------

    def policy_move(self, rand: Callable[[], float], epsilon: float = 0.1) -> int:
        """A cheap rule-based move for the seat to act (with ``epsilon`` uniform noise)."""
        phase = self.phase
        seat = self.actor
        if phase == PLAYING:
            return self._policy_play(seat, rand, epsilon)
        if phase == DECIDING:
            ok = sin_likely(self.hands[seat], self.in_force, self.trump, self.n, self.papal_bull)
            return SIN if ok else PASS
        if phase == TIES:
            assert self.pending is not None
            tied = self.pending[2]
            if seat in tied and self.sinner == seat:
                return TIE + seat
            others = [s for s in tied if s != seat]
            return TIE + (others[int(rand() * len(others))] if others else seat)
        if phase == NAMING:
            return TRUMP + best_trump(self.hands[seat], self.n)
        moves = self.legal()
        return moves[int(rand() * len(moves))]

    def _policy_play(self, seat: int, rand: Callable[[], float], epsilon: float) -> int:
        hand = self.hands[seat]
        plays = self.plays
        if plays:
            led = plays[0][1] // 9
            follow = hand & FAMILY_MASKS[led]
            mask = follow or hand
        else:
            led = -1
            follow = 0
            mask = hand & ~self.ctx.restricted_lead or hand if not self.winners else hand
        if rand() < epsilon or mask & (mask - 1) == 0:
            return _random_card(mask, rand)
        sinner = self.sinner
        trump = self.trump
        # Current best key of the trick and its seat.
        best_key = -1
        best_seat = -1
        for s, c, r in plays:
            family = c // 9
            if family == trump:
                key = 20 + (9 if r else c % 9)
            elif family == led:
                key = 10 + (9 if r else c % 9)
            else:
                continue
            if key > best_key:
                best_key, best_seat = key, s
        last = len(plays) == self.n - 1
        if plays:
            led9 = 9 * led
            if best_key >= 20 and led != trump:
                below = follow  # trumped: following cannot win
            else:
                below = follow & (((1 << (best_key % 10)) - 1) << led9)
            winning = follow & ~below
        else:
            below = winning = 0
        if sinner is None:
            bad = self.bad_cards
            if not plays:
                return _lowest_rank(mask & ~bad or mask)
            if follow:
                if below:
                    return _highest(below)
                return _highest(follow) if last else _lowest(follow)
            # Void: dump a costly card, but not a trump that would win the trick.
            safe = hand & ~FAMILY_MASKS[trump] if trump is not None else hand
            dump = safe & bad or safe or hand
            return _highest_rank(dump)
        targets = self.bad_cards
        if seat == sinner:
            ring_ok = not self.ring_used and bool(self.winners)
            if not plays:
                card = _highest_rank(mask)
                return RING + card if ring_ok and rand() < 0.3 else card
            if follow:
                if winning:
                    return _lowest(winning)
                if ring_ok and (best_key < 19 or (led == trump and best_key < 29)):
                    return RING + _lowest(follow)
                return _lowest(follow)
            if trump is not None and hand & FAMILY_MASKS[trump]:
                return _highest(hand & FAMILY_MASKS[trump])
            return _lowest_rank(hand & ~targets or hand)
        # Against the sinner: beat the sinner, or give a target to someone else.
        sinner_played = any(s == sinner for s, _c, _r in plays)
        if not plays:
            mine = mask & targets
            return _highest_rank(mine) if mine else _highest_rank(mask)
        if follow:
            if sinner_played and best_seat != sinner:
                return _highest(follow & targets) if follow & targets else _lowest(follow)
            return _highest(follow)
        if best_seat != sinner and sinner_played and hand & targets:
            return _highest_rank(hand & targets)
        if trump is not None and hand & FAMILY_MASKS[trump]:
            return _highest(hand & FAMILY_MASKS[trump])
        return _lowest_rank(hand & ~targets or hand)

    def playout(self, rand: Callable[[], float], epsilon: float = 0.1) -> None:
        """Play the hand to its end with the policy."""
        while self.phase != DONE:
            self.step(self.policy_move(rand, epsilon))


def _random_card(mask: int, rand: Callable[[], float]) -> int:
    i = int(rand() * mask.bit_count())
    while i:
        mask &= mask - 1
        i -= 1
    return (mask & -mask).bit_length() - 1


def _lowest(mask: int) -> int:
    """The lowest card of a set of one family (the lowest id)."""
    return (mask & -mask).bit_length() - 1


def _highest(mask: int) -> int:
    """The highest card of a set of one family (the highest id)."""
    return mask.bit_length() - 1


def _lowest_rank(mask: int) -> int:
    """The card of lowest rank in a set (any families)."""
    best = -1
    best_rank = 99
    for family in range(4):
        chunk = (mask >> (9 * family)) & 511
        if chunk:
            r = (chunk & -chunk).bit_length() - 1
            if r < best_rank:
                best_rank, best = r, family * 9 + r
    return best


def _highest_rank(mask: int) -> int:
    """The card of highest rank in a set (any families)."""
    best = -1
    best_rank = -1
    for family in range(4):
        chunk = (mask >> (9 * family)) & 511
        if chunk:
            r = chunk.bit_length() - 1
            if r > best_rank:
                best_rank, best = r, family * 9 + r
    return best


def from_view(
    view: JsonDict,
    hands: Sequence[int] | None = None,
    plays: Sequence[tuple[int, int, bool]] | None = None,
) -> SimHand:
    """A simulator at the view's position. ``hands`` (and, for a trick played face down,
    ``plays``) give the true cards (tests); else the unseen cards are dealt at random."""
    obs = Observation(view)
    if hands is None:
        sampled, sampled_plays = sample_hidden(obs, random.Random(0))
        return SimHand(obs, sampled, sampled_plays)
    return SimHand(obs, list(hands), list(plays) if plays is not None else obs.plays)
