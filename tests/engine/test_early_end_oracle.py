"""Early end, checked against an independent oracle.

The rule (shared/rules/indulgence.md, "A hand" 8): "The hand ends as soon as no
remaining play can change any payment (no scoring cards left to take, or the sin can no
longer succeed)", made exact in docs/engine.md: after each completed trick, the hand
ends when the settlement is determined whatever happens to the rest, where "whatever
happens" is any assignment of every unplayed card, and of every remaining trick, to any
seat (what play could really achieve is ignored), and tie choices are not play.

The oracle below knows nothing of the engine code. It works on card ids and the rules
text: for a hand cut after trick ``t`` it builds completions (who takes each unplayed
card, who wins each remaining trick, which unplayed card of each family is played last)
and scores each one with its own small scorer (payments per edict and payer, the tied
leaders of each family for "the most", the sin's success). The outcome can still change
exactly when two completions score differently. Candidates: for every seat, "that seat
takes every remaining card and trick", plus random completions. For every edict the
"everything to one seat" completions already contain a pair that differs whenever any
pair does (a payer taking all or none of what is left; the last trick, the last card,
three tricks to one seat or another; a family's count moved entirely to one seat).

Then, for every trick of many random hands: if the engine played on after it, the
oracle must show that a payment could still change; if the engine ended the hand early
after it, no completion may change anything.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from engine import indulgence as game
from tests.engine.support import _family, _rank, _scoring, random_game

FAMILIES = ("borgia", "medici", "orsini", "sforza")
ALL_CARDS = [f"{i}{r}" for i in "BMOS" for r in range(1, 10)]
AMOUNTS = {"sixes": 2, "first-last": 4, "first-to-three": 6}


class Completion:
    """A whole hand as the oracle scores it: cards taken, every trick's winner, and the
    taker of each family's last card."""

    def __init__(
        self, taken: dict[int, set[str]], winners: list[int], last_taker: dict[str, int]
    ) -> None:
        self.taken = taken
        self.winners = winners
        self.last_taker = last_taker


def _first_to_three(winners: list[int]) -> int | None:
    counts: dict[int, int] = {}
    for w in winners:
        counts[w] = counts.get(w, 0) + 1
        if counts[w] == 3:
            return w
    return None


def _leaders(c: Completion, family: str, n: int) -> frozenset[int]:
    counts = [sum(1 for card in c.taken[s] if _family(card) == family) for s in range(n)]
    top = max(counts)
    return frozenset(s for s in range(n) if counts[s] == top) if top else frozenset()


def _owes(edict: str, seat: int, c: Completion, trump: str | None) -> int:
    """What ``seat`` owes the Ruler for an Edict side (rules text, edicts.md)."""
    if edict.startswith("last-"):
        return 8 if c.last_taker.get(edict[5:]) == seat else 0
    if edict == "first-last":
        return 4 * ((c.winners[0] == seat) + (c.winners[-1] == seat))
    if edict == "first-to-three":
        return 6 if _first_to_three(c.winners) == seat else 0
    if edict == "no-tricks":
        return c.winners.count(seat)
    if edict.startswith("pairs-"):
        _, a, b = edict.split("-")
        mine = c.taken[seat]
        return 2 * len(
            {_rank(x) for x in mine if _family(x) == a}
            & {_rank(x) for x in mine if _family(x) == b}
        )
    return AMOUNTS.get(edict, 1) * len(c.taken[seat] & _scoring(edict, trump))


def _sin_met(edict: str, sinner: int, c: Completion, trump: str | None, n: int) -> bool:
    """Whether the sinner meets a Sin side (ties for the most: the sinner picks itself)."""
    if edict.startswith("last-"):
        return c.last_taker.get(edict[5:]) == sinner
    if edict == "first-last":
        return c.winners[0] == sinner and c.winners[-1] == sinner
    if edict == "first-to-three":
        return _first_to_three(c.winners) == sinner
    if edict == "no-tricks":
        return all(w == sinner for w in c.winners)
    if edict == "most-of-family":
        return all(sinner in _leaders(c, f, n) for f in FAMILIES if _leaders(c, f, n))
    return _scoring(edict, trump) <= c.taken[sinner]


def outcome(hand: dict[str, Any], c: Completion, n: int) -> object:
    """Everything the settlement of a completed hand depends on, but tie choices."""
    ruler, sinner, trump = hand["ruler"], hand["sinner"], hand["trump"]
    edicts = hand["edicts_in_force"]
    if sinner is not None:
        return all(_sin_met(e, sinner, c, trump, n) for e in edicts)
    payers = [s for s in range(n) if s != ruler]
    result: list[object] = []
    for edict in edicts:
        if edict == "most-of-family":
            result.append(tuple(_leaders(c, f, n) for f in FAMILIES))
        else:
            result.append(tuple(_owes(edict, p, c, trump) for p in payers))
    return tuple(result)


def completions(
    hand: dict[str, Any], played: int, n: int, rng: random.Random, extra: int
) -> Iterator[Completion]:
    """Completions of the hand cut after ``played`` tricks."""
    tricks = hand["tricks"][:played]
    taken: dict[int, set[str]] = {s: set() for s in range(n)}
    order: list[str] = []
    winners = []
    for trick in tricks:
        cards = [p["card"] for p in trick["plays"]]
        taken[trick["winner"]].update(cards)
        order.extend(cards)
        winners.append(trick["winner"])
    # The taker of the trick holding a family's ninth card, if it was played.
    last_taker = {}
    seen = dict.fromkeys(FAMILIES, 0)
    for trick in tricks:
        for p in trick["plays"]:
            seen[_family(p["card"])] += 1
        for f in FAMILIES:
            if seen[f] == 9 and f not in last_taker:
                last_taker[f] = trick["winner"]
    remaining = [x for x in ALL_CARDS if x not in set(order)]
    left = 36 // n - played
    open_families = sorted({_family(x) for x in remaining})

    def build(owner: dict[str, int], more: list[int], last_card: dict[str, str]) -> Completion:
        t = {s: set(taken[s]) for s in range(n)}
        for card, seat in owner.items():
            t[seat].add(card)
        lt = dict(last_taker)
        for f, card in last_card.items():
            lt[f] = owner[card]
        return Completion(t, winners + more, lt)

    for seat in range(n):
        owner = dict.fromkeys(remaining, seat)
        last = {f: next(x for x in remaining if _family(x) == f) for f in open_families}
        yield build(owner, [seat] * left, last)
    for _ in range(extra):
        owner = {x: rng.randrange(n) for x in remaining}
        last = {f: rng.choice([x for x in remaining if _family(x) == f]) for f in open_families}
        yield build(owner, [rng.randrange(n) for _ in range(left)], last)


def can_change(hand: dict[str, Any], played: int, n: int, rng: random.Random, extra: int) -> bool:
    outcomes = {repr(outcome(hand, c, n)) for c in completions(hand, played, n, rng, extra)}
    return len(outcomes) > 1


def test_the_oracle_sees_open_and_closed_hands() -> None:
    # Hand-made: Ruler 0, no sinner, "Don't take any 6s", four players.
    deal: dict[str, list[str]] = {"0": [], "1": [], "2": [], "3": []}
    sixes_taken = [
        {"leader": 0, "plays": [{"seat": s, "card": c} for s, c in enumerate(cards)], "winner": w}
        for cards, w in ((["B6", "B1", "B2", "B3"], 0), (["M6", "O6", "S6", "M1"], 1))
    ]
    hand = {
        "ruler": 0,
        "sinner": None,
        "trump": None,
        "edicts_in_force": ["sixes"],
        "tricks": sixes_taken,
        "deal": deal,
    }
    rng = random.Random(0)
    assert can_change(hand, 1, 4, rng, 5)  # three 6s are still out
    assert not can_change(hand, 2, 4, rng, 5)  # all four 6s taken: nothing can change
    hand["sinner"] = 2
    assert not can_change(hand, 1, 4, rng, 5)  # the Ruler took a 6: the sin has failed
    hand["sinner"] = 1
    hand["tricks"] = sixes_taken[1:]
    assert can_change(hand, 1, 4, rng, 5)  # the sinner has three 6s, one is still out


def _hands(games: int) -> Iterator[tuple[dict[str, Any], int]]:
    rng = random.Random(2024)
    for i in range(games):
        players, variant = (3, 4)[i % 2], ("basic", "expert")[i // 2 % 2]
        state, _moves = random_game(f"oracle-{i}", players, variant, rng)
        for hand in game.full_record(state)["hands"]:
            yield hand, players


def test_early_end_is_exactly_when_no_payment_can_change() -> None:
    rng = random.Random(7)
    hands = tricks_checked = early = played_on = 0
    kinds: set[str] = set()
    for hand, n in _hands(240):
        tricks = hand["tricks"]
        hands += 1
        early += hand["ended_early"]
        for t in range(1, len(tricks) + 1):
            if t == len(tricks) and not hand["ended_early"]:
                continue  # the last trick of the hand: nothing to decide
            changeable = can_change(hand, t, n, rng, extra=6)
            tricks_checked += 1
            what = f"hand {hand['number']} after trick {t} of {len(tricks)}: {hand}"
            if t < len(tricks):
                played_on += 1
                assert changeable, f"the engine played on though nothing could change, {what}"
            else:
                assert not changeable, (
                    f"the engine ended early though a payment could change, {what}"
                )
                kinds.update(hand["edicts_in_force"])
    print(f"early end oracle: {hands} hands, {tricks_checked} tricks checked, {early} early ends")
    assert hands >= 2000
    assert early >= 1000
    assert played_on >= 5000
    assert len(kinds) == 20  # early ends were seen under every edict
