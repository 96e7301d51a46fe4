"""The heuristic bot: every decision made with intent, from the seat's view only.

- Ruler: picks the edict with the best expected income for its hand (a family it is
  void or low in for the family edicts, weak hands for trick edicts...), names as trump
  the family it would take fewest of, and plays its papal bull when the whole row is
  worth clearly more than the best single edict (or at its last chance).
- Sin: only with a hand likely to meet the Sin side (:func:`engine.bots._eval.sin_likely`).
- Play, no sinner: avoid taking costly cards/tricks (duck under, shed high cards when
  safe, dump costly cards when void, lead low where others can still beat the card).
- Play as the sinner: hunt: lead sure winners (from the target family first), win the
  tricks the Sin side needs, put the ring on a card when that wins a needed trick.
- Play against a sinner: take a target card or beat the sinner, dump targets on tricks
  someone else wins.
- Ties: the sinner chooses itself; the Ruler makes the richest tied opponent pay.
"""

from __future__ import annotations

import random
from typing import Any

from engine.bots._eval import best_trump, edict_income, sin_likely
from engine.bots._observe import (
    BULL,
    CHOOSE,
    PASS,
    RING,
    SIN,
    TIE,
    TRUMP,
    Observation,
    decode,
)
from engine.cards import FAMILY_MASKS
from engine.indulgence.edicts import CATALOG

VERSION = "2"

JsonDict = dict[str, Any]

_BAD_CARD_KINDS = frozenset({"any_family", "ranks", "even", "any_trump"})


def heuristic_bot(view: JsonDict, rng: random.Random) -> JsonDict:
    """The heuristic bot's action for this view (one of ``view["legal_actions"]``)."""
    actions: list[JsonDict] = view["legal_actions"]
    if not actions:
        raise ValueError("The heuristic bot was asked to move with no legal action.")
    if len(actions) == 1:
        return dict(actions[0])
    obs = Observation(view)
    move = decide(obs, rng)
    pending = obs.pending_tie[0] if obs.pending_tie else None
    action = decode(move, pending)
    if action not in actions:  # defensive: never return an illegal action
        return dict(actions[0])
    return action


def decide(obs: Observation, rng: random.Random) -> int:
    """The heuristic's move code for an observation (a legal one)."""
    legal = obs.legal
    first = legal[0]
    if (first >= CHOOSE and first < BULL) or first == BULL:
        return _choose_edict(obs)
    if TRUMP <= first < PASS:
        return TRUMP + best_trump(obs.hand, obs.n)
    if first in (PASS, SIN):
        ok = sin_likely(obs.hand, obs.in_force, obs.trump, obs.n, obs.papal_bull)
        return SIN if ok else PASS
    if first >= TIE:
        return _resolve_tie(obs)
    return _play(obs, rng)


# --- Ruler ------------------------------------------------------------------------------


def _choose_edict(obs: Observation) -> int:
    values = [(edict_income(CATALOG[e], obs.hand, obs.n), e) for e in obs.row]
    best_value, best = max(values)
    if BULL in obs.legal and len(values) > 1:
        total = sum(v for v, _e in values)
        last_chance = obs.hand_number + obs.n > obs.total_hands
        if (total >= best_value + 6.0 and min(v for v, _e in values) >= 2.5) or (
            last_chance and total >= best_value + 2.0
        ):
            return BULL
    return CHOOSE + best


def _resolve_tie(obs: Observation) -> int:
    assert obs.pending_tie is not None
    tied = obs.pending_tie[2]
    if obs.me in tied and obs.sinner == obs.me:
        return TIE + obs.me
    others = [s for s in tied if s != obs.me]
    if not others:
        return TIE + obs.me
    # The richest tied opponent pays (it hurts the leader most).
    return TIE + max(others, key=lambda s: (obs.florins[s], -s))


# --- Play -------------------------------------------------------------------------------


class _Trick:
    """The trick in progress as far as this seat can see it."""

    def __init__(self, obs: Observation) -> None:
        self.plays = obs.plays
        self.led = obs.led
        self.trump = obs.trump
        best_key = -1
        best_seat = -1
        cards = 0
        for seat, card, ring in obs.plays:
            if card < 0:
                continue
            cards |= 1 << card
            key = _key(card, ring, self.led, self.trump)
            if key > best_key:
                best_key, best_seat = key, seat
        self.best_key = best_key
        self.best_seat = best_seat
        self.cards = cards
        self.remaining_players = obs.n - len(obs.plays) - 1  # after me
        self.played_seats = {seat for seat, _c, _r in obs.plays}


def _key(card: int, ring: bool, led: int | None, trump: int | None) -> int:
    family = card // 9
    rank = 9 if ring else card % 9
    if family == trump:
        return 20 + rank
    if family == led:
        return 10 + rank
    return -1


def _card_cost(obs: Observation, card: int) -> float:
    """What taking ``card`` costs this seat under the edicts in force (no sinner)."""
    cost = 0.0
    bit = 1 << card
    for edict, mask in zip(obs.ctx.edicts, obs.ctx.masks, strict=True):
        kind = edict.kind
        if kind in _BAD_CARD_KINDS:
            if bit & mask:
                cost += edict.edict_amount
        elif kind == "pairs":
            if bit & mask:
                a, b = edict.family_idx
                other = card + 9 * (b - a) if card // 9 == a else card - 9 * (b - a)
                if obs.taken[obs.me] >> other & 1:
                    cost += edict.edict_amount
                elif (obs.unseen | obs.hand) >> other & 1:
                    cost += 0.4 * edict.edict_amount
        elif kind == "most_of_family":
            family = card // 9
            mine = (obs.taken[obs.me] & FAMILY_MASKS[family]).bit_count()
            best_other = max(
                (t & FAMILY_MASKS[family]).bit_count()
                for s, t in enumerate(obs.taken)
                if s != obs.me
            )
            cost += 0.4 + (1.0 if mine + 1 >= best_other else 0.0)
        elif kind == "last_of_family" and bit & mask:
            cost += 0.3
    return cost


def _trick_cost(obs: Observation, trick_cards: int) -> float:
    """What winning a trick holding ``trick_cards`` (so far) costs this seat."""
    cost = 0.0
    mask = trick_cards
    while mask:
        low = mask & -mask
        cost += _card_cost(obs, low.bit_length() - 1)
        mask ^= low
    done = len(obs.tricks)
    total = 36 // obs.n
    for edict, mask_e in zip(obs.ctx.edicts, obs.ctx.masks, strict=True):
        kind = edict.kind
        if kind == "first_last" and (done == 0 or done == total - 1):
            cost += edict.edict_amount
        elif kind == "first_to_three" and obs.first_to_three is None:
            cost += edict.edict_amount if obs.trick_counts[obs.me] == 2 else 1.0
        elif kind == "no_tricks":
            cost += edict.edict_amount
        elif kind == "last_of_family" and trick_cards & mask_e:
            left = ((obs.unseen | obs.hand) & ~trick_cards & mask_e).bit_count()
            if left == 0:
                cost += edict.edict_amount
            elif left <= 2:
                cost += edict.edict_amount / 3
    return cost


def _cards_of(legal: list[int]) -> int:
    mask = 0
    for move in legal:
        if move < RING:
            mask |= 1 << move
    return mask


def _ranked(mask: int) -> list[int]:
    """Cards of a set, lowest rank first (ties by family)."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    cards.sort(key=lambda c: (c % 9, c))
    return cards


def _higher_unseen(obs: Observation, card: int) -> int:
    """How many unseen cards of the card's family rank above it."""
    family = card // 9
    above = FAMILY_MASKS[family] & ~((1 << (card + 1)) - 1)
    return (obs.unseen & above).bit_count()


def _play(obs: Observation, rng: random.Random) -> int:
    playable = _cards_of(obs.legal)
    ring_ok = any(m >= RING for m in obs.legal)
    trick = _Trick(obs)
    if obs.sinner is None:
        return _avoid(obs, playable, trick)
    if obs.sinner == obs.me:
        return _hunt(obs, playable, ring_ok, trick)
    return _oppose(obs, playable, trick)


def _split(playable: int, trick: _Trick) -> tuple[int, int]:
    """(cards that would not beat the trick's best so far, cards that would)."""
    if trick.led is None or trick.best_key < 0:
        return 0, playable
    below = 0
    mask = playable
    while mask:
        low = mask & -mask
        card = low.bit_length() - 1
        if _key(card, False, trick.led, trick.trump) < trick.best_key:
            below |= low
        mask ^= low
    return below, playable & ~below


def _avoid(obs: Observation, playable: int, trick: _Trick) -> int:
    """No sinner: take as little that costs as possible."""
    if not obs.plays:
        return _safe_lead(obs, playable)
    below, above = _split(playable, trick)
    led = trick.led
    assert led is not None
    follows = bool(playable & FAMILY_MASKS[led])
    last = trick.remaining_players == 0
    if follows:
        if last and above:
            cost = min(_trick_cost(obs, trick.cards | (1 << c)) for c in _ranked(above))
            if cost <= 0.0:
                return _ranked(above)[-1]  # a free trick: shed the highest card
        if below:
            return _ranked(below)[-1]  # duck as high as possible
        ranked = _ranked(above)
        return ranked[-1] if last else ranked[0]
    # Void in the led family: dump what would cost most, never a winning trump.
    candidates = below or playable
    return max(_ranked(candidates), key=lambda c: (_card_cost(obs, c), c % 9))


def _safe_lead(obs: Observation, playable: int) -> int:
    """Lead the card least likely to win the trick (shedding higher cards on ties)."""
    best = -1
    best_score = 9.0
    others = [s for s in range(obs.n) if s != obs.me]
    for card in _ranked(playable):
        family = card // 9
        higher = _higher_unseen(obs, card)
        if all(obs.voids[s] >> family & 1 for s in others):
            p_win = 1.0
        elif higher == 0:
            p_win = 1.0 if obs.trump is None or family == obs.trump else 0.8
        else:
            p_win = 0.5**higher
        score = p_win * (1.0 + _card_cost(obs, card) * 0.2) - 0.004 * (card % 9)
        if score < best_score:
            best, best_score = card, score
    return best


def _wants_trick(obs: Observation, trick: _Trick) -> bool:
    """Whether the sinner needs (or should try) to win the trick in progress."""
    done = len(obs.tricks)
    total = 36 // obs.n
    for edict, mask in zip(obs.ctx.edicts, obs.ctx.masks, strict=True):
        kind = edict.kind
        if kind in _BAD_CARD_KINDS or kind == "pairs":
            if trick.cards & mask or obs.unseen & mask:
                return True
        elif kind == "last_of_family":
            left = ((obs.unseen | obs.hand) & mask).bit_count()
            if trick.cards & mask or left <= obs.n:
                return True
        elif kind == "first_last":
            if done == 0 or done >= total - 2:
                return True
        elif kind in ("first_to_three", "no_tricks", "most_of_family"):
            return True
    return False


def _hunt(obs: Observation, playable: int, ring_ok: bool, trick: _Trick) -> int:
    """The sinner: win the tricks the Sin side needs."""
    targets = 0
    for edict, mask in zip(obs.ctx.edicts, obs.ctx.masks, strict=True):
        if edict.kind in _BAD_CARD_KINDS or edict.kind in ("pairs", "last_of_family"):
            targets |= mask
    if not obs.plays:
        sure = [c for c in _ranked(playable) if _higher_unseen(obs, c) == 0]
        if sure:
            sure.sort(key=lambda c: (bool((1 << c) & targets), c % 9))
            return sure[-1]
        card = _ranked(playable)[-1]
        if ring_ok:
            return RING + card
        return card
    want = _wants_trick(obs, trick)
    below, above = _split(playable, trick)
    led = trick.led
    assert led is not None
    follows = bool(playable & FAMILY_MASKS[led])
    if want:
        if above:
            ranked = _ranked(above)
            if trick.remaining_players == 0:
                return ranked[0]
            sure = [c for c in ranked if _higher_unseen(obs, c) == 0]
            return sure[0] if sure else ranked[-1]
        if ring_ok and follows:
            ring_key = _key(_ranked(below)[0], True, led, trick.trump)
            if ring_key > trick.best_key:
                return RING + _ranked(below)[0]
    ranked = _ranked(below or playable)
    non_target = [c for c in ranked if not (1 << c) & targets]
    return (non_target or ranked)[0]


def _oppose(obs: Observation, playable: int, trick: _Trick) -> int:
    """Against a sinner: beat the sinner, take a target, or give one to someone else."""
    sinner = obs.sinner
    assert sinner is not None
    targets = 0
    for edict, mask in zip(obs.ctx.edicts, obs.ctx.masks, strict=True):
        if edict.kind in _BAD_CARD_KINDS or edict.kind in ("pairs", "last_of_family"):
            targets |= mask
    if not obs.plays:
        mine = _ranked(playable & targets)
        if mine and _higher_unseen(obs, mine[-1]) == 0:
            return mine[-1]
        for card in reversed(_ranked(playable)):
            if obs.voids[sinner] >> (card // 9) & 1:
                return card
        return _ranked(playable)[-1]
    below, above = _split(playable, trick)
    led = trick.led
    assert led is not None
    follows = bool(playable & FAMILY_MASKS[led])
    sinner_played = sinner in trick.played_seats
    sinner_winning = sinner_played and trick.best_seat == sinner
    if sinner_winning or not sinner_played:
        if above:
            ranked = _ranked(above)
            if trick.remaining_players == 0 or sinner_played:
                with_target = [c for c in ranked if (1 << c) & targets]
                return with_target[0] if with_target else ranked[0]
            return ranked[-1]
        ranked = _ranked(below or playable)
        non_target = [c for c in ranked if not (1 << c) & targets]
        return (non_target or ranked)[0]
    # Someone else wins so far and the sinner has played: give them a target.
    candidates = below if follows else (below or playable)
    ranked = _ranked(candidates or playable)
    with_target = [c for c in ranked if (1 << c) & targets]
    return with_target[-1] if with_target else ranked[0]
