"""What a bot may infer from its view, determinizations, and a fast hand simulator.

- :class:`Observation` parses one seat's view (``engine.indulgence.view``): the bot's
  hand, every card seen played, voids revealed by not following, hand counts...
- :func:`sample_hidden` deals the unseen cards to the other seats consistently with
  the observation (hand counts, voids, the first-lead restriction, cards played face
  down in the trick in progress).
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
from typing import Any

from engine.bots._eval import best_trump, sin_likely
from engine.cards import (
    CARD_IDS,
    CARD_INDEX,
    DECK_SIZE,
    FAMILIES,
    FAMILY_INDEX,
    FAMILY_MASKS,
    FULL_DECK,
)
from engine.indulgence.edicts import CATALOG, EDICT_INDEX
from engine.indulgence.settlement import (
    HandContext,
    Progress,
    hand_context,
    hand_decided,
    pending_tie,
    settle,
)

JsonDict = dict[str, Any]

# Move codes (ints, so the tree and the playout never build dicts).
RING = 36  # 36 + card: play the card with the Indulgence ring
CHOOSE = 100  # 100 + edict index
BULL = 200
TRUMP = 300  # 300 + family
PASS = 400
SIN = 401
TIE = 500  # 500 + chosen seat (the family is the pending tie's)

CHOOSING, NAMING, DECIDING, PLAYING, TIES, DONE = range(6)
PHASES = {
    "choosing_edict": CHOOSING,
    "naming_trump": NAMING,
    "sin_decision": DECIDING,
    "playing": PLAYING,
    "resolving_ties": TIES,
    "settling": DONE,
}

PAPAL_WIN_BONUS = 40
"""Reward for a papal-bull sin that wins the whole game (it pays no florins)."""

_BAD_KINDS = frozenset({"any_family", "ranks", "even", "any_trump", "pairs", "last_of_family"})

_ORDERS = {
    n: tuple(tuple((leader + k) % n for k in range(n)) for leader in range(n)) for n in (3, 4)
}


def encode(action: JsonDict) -> int:
    """The move code of a view action."""
    kind = action["type"]
    if kind == "play":
        card = CARD_INDEX[action["card"]]
        return RING + card if action["indulgence"] else card
    if kind == "choose_edict":
        return CHOOSE + EDICT_INDEX[action["edict"]]
    if kind == "papal_bull":
        return BULL
    if kind == "name_trump":
        return TRUMP + FAMILY_INDEX[action["family"]]
    if kind == "pass":
        return PASS
    if kind == "sin":
        return SIN
    if kind == "resolve_tie":
        return TIE + int(action["seat"])
    raise ValueError(f"unknown action type {kind!r}")


def decode(move: int, pending_family: int | None = None) -> JsonDict:
    """The view action of a move code (a tie needs the pending tie's family)."""
    if move < RING:
        return {"type": "play", "card": CARD_IDS[move], "indulgence": False}
    if move < CHOOSE:
        return {"type": "play", "card": CARD_IDS[move - RING], "indulgence": True}
    if move < BULL:
        return {"type": "choose_edict", "edict": CATALOG[move - CHOOSE].id}
    if move == BULL:
        return {"type": "papal_bull"}
    if move < PASS:
        return {"type": "name_trump", "family": FAMILIES[move - TRUMP]}
    if move == PASS:
        return {"type": "pass"}
    if move == SIN:
        return {"type": "sin"}
    assert pending_family is not None
    return {"type": "resolve_tie", "family": FAMILIES[pending_family], "seat": move - TIE}


def _card(card_id: str | None) -> int:
    return -1 if card_id is None else CARD_INDEX[card_id]


class Observation:
    """Everything one seat knows about the hand in progress, parsed from its view."""

    def __init__(self, view: JsonDict) -> None:
        n = int(view["player_count"])
        me = view["my_seat"]
        if me is None:
            raise ValueError("a bot needs a seat's view, not a spectator's")
        self.n = n
        self.me = int(me)
        self.phase = PHASES.get(view["phase"], DONE)
        self.ruler = int(view["ruler_seat"])
        self.hand_number = int(view["hand_number"])
        self.total_hands = int(view["total_hands"])
        self.florins = tuple(int(s["florins"]) for s in view["seats"])
        self.bulls = tuple(bool(s["papal_bull_available"]) for s in view["seats"])
        self.hand = 0
        for card_id in view["my_hand"]:
            self.hand |= 1 << CARD_INDEX[card_id]
        self.row = tuple(EDICT_INDEX[e["id"]] for e in view["edict_row"])
        self.in_force = tuple(EDICT_INDEX[e["id"]] for e in view["edicts_in_play"])
        self.papal_bull = bool(view["papal_bull"])
        trump = view["trump"]
        self.trump: int | None = None if trump is None else FAMILY_INDEX[trump]
        self.sin_decided = len(view["sin_decisions"])
        sinner = view["sinner_seat"]
        self.sinner: int | None = None if sinner is None else int(sinner)
        self.ring_used = bool(view["indulgence_used"])
        self.face_down = bool(view["face_down"])
        self.hand_counts = tuple(int(view["hand_counts"][str(s)]) for s in range(n))
        self.pending_tie: tuple[int, int, tuple[int, ...]] | None = None
        pending = view["pending_tie"]
        if pending is not None:
            self.pending_tie = (
                FAMILY_INDEX[pending["family"]],
                int(pending["chooser"]),
                tuple(pending["seats"]),
            )
        self.tie_choices = [
            (FAMILY_INDEX[t["family"]], int(t["chooser"]), int(t["seat"]))
            for t in view["tie_choices"]
        ]
        # Completed tricks: who took what, voids, last takers, first to three.
        self.ctx = hand_context(
            n, self.ruler, self.sinner, self.in_force, self.papal_bull, self.trump
        )
        seen = 0
        taken = [0] * n
        counts = [0] * n
        voids = [0] * n  # bit f: the seat has shown it holds no card of family f
        played_per_family = [0, 0, 0, 0]
        last_takers: list[int | None] = [None, None, None, None]
        first_to_three: int | None = None
        winners: list[int] = []
        allowed = [FULL_DECK] * n
        tricks: list[tuple[int, list[tuple[int, int, bool]], int]] = []
        for t, trick in enumerate(view["tricks"]):
            plays = [
                (int(p["seat"]), CARD_INDEX[p["card"]], bool(p["indulgence"]))
                for p in trick["plays"]
            ]
            winner = int(trick["winner"])
            tricks.append((int(trick["leader"]), plays, winner))
            led = plays[0][1] // 9
            if t == 0 and (1 << plays[0][1]) & self.ctx.restricted_lead:
                allowed[plays[0][0]] &= self.ctx.restricted_lead
            cards = 0
            for seat, card, _ring in plays:
                cards |= 1 << card
                played_per_family[card // 9] += 1
                if card // 9 != led:
                    voids[seat] |= 1 << led
            seen |= cards
            taken[winner] |= cards
            counts[winner] += 1
            winners.append(winner)
            if first_to_three is None and counts[winner] == 3:
                first_to_three = winner
            for family in range(4):
                if cards & FAMILY_MASKS[family] and played_per_family[family] == 9:
                    last_takers[family] = winner
        self.tricks = tricks
        self.winners = winners
        self.taken = taken
        self.trick_counts = counts
        self.first_to_three = first_to_three
        self.last_takers = last_takers
        # The trick in progress (cards of other seats are None when played face down).
        current = view["current_trick"]
        self.leader = int(current["leader"])
        led_family = current["led_family"]
        self.led: int | None = None if led_family is None else FAMILY_INDEX[led_family]
        self.plays = [
            (int(p["seat"]), _card(p["card"]), bool(p["indulgence"])) for p in current["plays"]
        ]
        for seat, card, _ring in self.plays:
            if card >= 0:
                seen |= 1 << card
                if self.led is not None and card // 9 != self.led:
                    voids[seat] |= 1 << self.led
        led_restricted = self.led is not None and FAMILY_MASKS[self.led] & self.ctx.restricted_lead
        if not tricks and self.plays and led_restricted:
            allowed[self.plays[0][0]] &= self.ctx.restricted_lead
        self.hidden_plays = [seat for seat, card, _ring in self.plays if card < 0]
        for seat in range(n):
            for family in range(4):
                if voids[seat] >> family & 1:
                    allowed[seat] &= ~FAMILY_MASKS[family]
        self.voids = voids
        self.allowed = allowed
        self.seen = seen
        self.unseen = FULL_DECK & ~seen & ~self.hand
        self.unseen_cards = [c for c in range(DECK_SIZE) if self.unseen >> c & 1]
        # No seat is barred from any unseen card: a plain shuffle deals consistently.
        self.unconstrained = all(
            self.unseen & ~allowed[s] == 0 for s in range(n) if s != self.me and self.hand_counts[s]
        )
        self.legal = [encode(a) for a in view["legal_actions"]]
        self.legal_actions: list[JsonDict] = list(view["legal_actions"])


def sample_hidden(
    obs: Observation, rng: random.Random
) -> tuple[list[int], list[tuple[int, int, bool]]]:
    """A deal of the unseen cards consistent with ``obs``: (hands per seat, trick plays).

    The bot's own hand is its real one. Seats that played face down in the trick in
    progress receive one card more, from which the card they played is then drawn
    (of the led family when they could follow; the leader always led that family).
    """
    n = obs.n
    me = obs.me
    pool = obs.unseen
    capacity = list(obs.hand_counts)
    capacity[me] = 0
    allowed = list(obs.allowed)
    hidden = obs.hidden_plays
    if not hidden and obs.unconstrained:
        return _shuffle_deal(obs, rng), list(obs.plays)
    led_mask = FAMILY_MASKS[obs.led] if obs.led is not None else 0
    forced: dict[int, int] = {}
    for seat in hidden:
        if seat == obs.leader:
            options = pool & led_mask & allowed[seat]
            card = _pick(options, rng) if options else _pick(pool & led_mask, rng)
            forced[seat] = card
            pool &= ~(1 << card)
        else:
            capacity[seat] += 1
    assigned = _assign(pool, capacity, allowed, rng)
    hands = [0] * n
    hands[me] = obs.hand
    for card, seat in assigned.items():
        hands[seat] |= 1 << card
    plays = list(obs.plays)
    for i, (seat, card, ring) in enumerate(plays):
        if card >= 0:
            continue
        if seat in forced:
            choice = forced[seat]
        else:
            follow = hands[seat] & led_mask
            choice = _pick(follow or hands[seat], rng)
            hands[seat] &= ~(1 << choice)
        plays[i] = (seat, choice, ring)
    return hands, plays


def _shuffle_deal(obs: Observation, rng: random.Random) -> list[int]:
    """The unseen cards shuffled and dealt by hand counts (no seat constraint applies)."""
    cards = obs.unseen_cards[:]
    rng.shuffle(cards)
    hands = [0] * obs.n
    hands[obs.me] = obs.hand
    start = 0
    for seat, count in enumerate(obs.hand_counts):
        if seat == obs.me or not count:
            continue
        mask = 0
        for card in cards[start : start + count]:
            mask |= 1 << card
        hands[seat] = mask
        start += count
    return hands


def _pick(mask: int, rng: random.Random) -> int:
    """A uniformly chosen card of a non-empty set."""
    i = rng.randrange(mask.bit_count())
    while i:
        mask &= mask - 1
        i -= 1
    return (mask & -mask).bit_length() - 1


def _assign(
    pool: int, capacity: list[int], allowed: list[int], rng: random.Random
) -> dict[int, int]:
    """Give every card of ``pool`` to a seat that may hold it, filling every capacity.

    Cards go, most constrained first, to an eligible seat with room chosen in proportion
    to its room; when no eligible seat has room, an augmenting path moves cards along
    (so a consistent deal is always found when one exists).
    """
    cards = []
    mask = pool
    while mask:
        low = mask & -mask
        card = low.bit_length() - 1
        eligible = [s for s in range(len(capacity)) if capacity[s] and allowed[s] >> card & 1]
        cards.append((len(eligible), rng.random(), card, eligible))
        mask ^= low
    cards.sort()
    room = list(capacity)
    holder: dict[int, int] = {}
    held: list[list[int]] = [[] for _ in capacity]
    for _count, _key, card, eligible in cards:
        open_seats = [s for s in eligible if room[s] > 0]
        if open_seats:
            total = sum(room[s] for s in open_seats)
            pick = rng.random() * total
            for seat in open_seats:
                pick -= room[seat]
                if pick < 0:
                    break
            holder[card] = seat
            held[seat].append(card)
            room[seat] -= 1
            continue
        if not _augment(card, eligible, room, holder, held, allowed):
            raise ValueError("no deal of the unseen cards is consistent with the view")
    return holder


def _augment(
    card: int,
    eligible: list[int],
    room: list[int],
    holder: dict[int, int],
    held: list[list[int]],
    allowed: list[int],
) -> bool:
    """Place ``card`` by moving other cards along a chain of seats to one with room."""
    parent: dict[int, tuple[int, int] | None] = {s: None for s in eligible}
    queue = list(eligible)
    while queue:
        seat = queue.pop(0)
        for moved in held[seat]:
            for target in range(len(room)):
                if target in parent or not allowed[target] >> moved & 1:
                    continue
                parent[target] = (seat, moved)
                if room[target] > 0:
                    # Shift cards back along the chain, then place the new card.
                    node: int = target
                    while parent[node] is not None:
                        link = parent[node]
                        assert link is not None
                        source, shifted = link
                        held[source].remove(shifted)
                        held[node].append(shifted)
                        holder[shifted] = node
                        node = source
                    room[target] -= 1
                    held[node].append(card)
                    holder[card] = node
                    return True
                queue.append(target)
    return False


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
