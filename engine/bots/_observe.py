"""What a bot may infer from its view of an Indulgence hand, and determinizations.

- The move codes: actions as small ints (:func:`encode`, :func:`decode`), so a tree and a
  playout never build dicts.
- :class:`Observation` parses one seat's view (``engine.indulgence.view``): the bot's
  hand, every card seen played, voids revealed by not following, hand counts...
- :func:`sample_hidden` deals the unseen cards to the other seats consistently with
  the observation (hand counts, voids, the first-lead restriction, cards played face
  down in the trick in progress).

Split out of :mod:`engine.bots._sim` (the hand simulator).
"""

from __future__ import annotations

import random
from typing import Any

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
    hand_context,
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
