"""The novice scientist bot (NE-30.1), reading only its seat's view.

It keeps about 150 one-attribute hypotheses, each a judgement of a candidate face given
the previous main-line face: set rules ("red", "rank <= 7", "hearts or spades"),
relations to the previous card ("other colour", "higher", "same suit", ...) and simple
conditionals ("after an odd card play black"). It drops every hypothesis the public
evidence contradicts (``view["round"]["main"]`` and ``view["round"]["turns"]``) and plays
the card that most surviving hypotheses call right (ties at random). It never plays
strings and never declares prophet; it declares no play when at least 80% of the
surviving hypotheses call every card of its hand wrong. With no survivor it plays a card
resembling (colour, parity, rank band) the cards recently accepted after a main-line card
resembling the current last one. As a dealer it is :func:`~engine.eleusis.bots.dealer_bot`.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from functools import partial

from engine.core import JsonDict
from engine.eleusis.bots import dealer_bot, explicit
from engine.eleusis.faces import (
    COLOR,
    FACE_COUNT,
    FACE_INDEX,
    IS_FACE,
    IS_PRIME,
    IS_RED,
    RANK,
    SUIT,
)

Judge = Callable[[int, int], bool]  # (previous face, candidate face) -> right
NO_PLAY_SHARE = 0.8


def _suit_in(suits: tuple[int, ...], f: int) -> bool:
    return SUIT[f] in suits


def _rank_at_most(k: int, f: int) -> bool:
    return RANK[f] <= k


def _rank_at_least(k: int, f: int) -> bool:
    return RANK[f] >= k


def _same(g: Callable[[int], object], p: int, c: int) -> bool:
    return g(p) == g(c)


def _other(g: Callable[[int], object], p: int, c: int) -> bool:
    return g(p) != g(c)


def _within(k: int, p: int, c: int) -> bool:
    return 0 < abs(RANK[c] - RANK[p]) <= k


def _sum_mod(m: int, p: int, c: int) -> bool:
    return (RANK[p] + RANK[c]) % m == 0


def _set_rule(u: Callable[[int], bool], p: int, c: int) -> bool:
    return u(c)


def _conditional(s: Callable[[int], bool], o: Callable[[int], bool], p: int, c: int) -> bool:
    return s(p) == o(c)


def _unary() -> list[tuple[str, Callable[[int], bool]]]:
    preds: list[tuple[str, Callable[[int], bool]]] = [
        ("red", lambda f: IS_RED[f]),
        ("black", lambda f: not IS_RED[f]),
        ("even", lambda f: RANK[f] % 2 == 0),
        ("odd", lambda f: RANK[f] % 2 == 1),
        ("face", lambda f: IS_FACE[f]),
        ("number", lambda f: not IS_FACE[f]),
        ("prime", lambda f: IS_PRIME[f]),
        ("not prime", lambda f: not IS_PRIME[f]),
    ]
    for s in range(4):
        preds.append((f"suit {s}", partial(_suit_in, (s,))))
    for a in range(4):
        for b in range(a + 1, 4):
            preds.append((f"suits {a}{b}", partial(_suit_in, (a, b))))
    for k in range(2, 13):
        preds.append((f"rank <= {k}", partial(_rank_at_most, k)))
        preds.append((f"rank >= {k}", partial(_rank_at_least, k)))
    return preds


def _relations() -> list[tuple[str, Judge]]:
    def d(p: int, c: int) -> int:
        return RANK[c] - RANK[p]

    rel: list[tuple[str, Judge]] = []
    features: list[tuple[str, Callable[[int], object]]] = [
        ("colour", lambda f: COLOR[f]),
        ("suit", lambda f: SUIT[f]),
        ("parity", lambda f: RANK[f] % 2),
        ("faceness", lambda f: IS_FACE[f]),
        ("primeness", lambda f: IS_PRIME[f]),
        ("hearts-spades", lambda f: SUIT[f] in (2, 3)),
        ("high", lambda f: RANK[f] >= 8),
    ]
    for name, g in features:
        rel.append((f"same {name}", partial(_same, g)))
        rel.append((f"other {name}", partial(_other, g)))
    rel += [
        ("higher", lambda p, c: d(p, c) > 0),
        ("lower", lambda p, c: d(p, c) < 0),
        ("higher or equal", lambda p, c: d(p, c) >= 0),
        ("lower or equal", lambda p, c: d(p, c) <= 0),
        ("same rank", lambda p, c: d(p, c) == 0),
        ("other rank", lambda p, c: d(p, c) != 0),
        ("step one wrap", lambda p, c: d(p, c) % 13 in (1, 12)),
        ("next rank wrap", lambda p, c: d(p, c) % 13 == 1),
        ("suit successor", lambda p, c: SUIT[c] == (SUIT[p] + 1) % 4),
        ("suit predecessor", lambda p, c: SUIT[c] == (SUIT[p] - 1) % 4),
        ("suit or rank", lambda p, c: SUIT[c] == SUIT[p] or RANK[c] == RANK[p]),
        ("colour not suit", lambda p, c: COLOR[c] == COLOR[p] and SUIT[c] != SUIT[p]),
        ("sum odd", lambda p, c: (RANK[p] + RANK[c]) % 2 == 1),
    ]
    for k in range(1, 6):
        rel.append((f"within {k}", partial(_within, k)))
    for m in (3, 4, 5):
        rel.append((f"sum mod {m}", partial(_sum_mod, m)))
    return rel


@functools.cache
def hypotheses() -> tuple[tuple[str, tuple[bool, ...]], ...]:
    """(name, truth table over previous x candidate face), behaviours deduplicated."""
    judges: list[tuple[str, Judge]] = [(name, partial(_set_rule, u)) for name, u in _unary()]
    judges += _relations()
    splits: list[tuple[str, Callable[[int], bool]]] = [
        ("odd", lambda f: RANK[f] % 2 == 1),
        ("red", lambda f: IS_RED[f]),
        ("face", lambda f: IS_FACE[f]),
        ("high", lambda f: RANK[f] >= 8),
    ]
    outcomes: list[tuple[str, Callable[[int], bool]]] = [
        ("black", lambda f: not IS_RED[f]),
        ("odd", lambda f: RANK[f] % 2 == 1),
        ("face", lambda f: IS_FACE[f]),
        ("high", lambda f: RANK[f] >= 8),
    ]
    for sname, s in splits:
        for oname, o in outcomes:
            judges.append((f"if prev {sname} then {oname} else not", partial(_conditional, s, o)))
    seen: set[tuple[bool, ...]] = set()
    out = []
    for name, judge in judges:
        table = tuple(judge(p, c) for p in range(FACE_COUNT) for c in range(FACE_COUNT))
        if table not in seen and any(table) and not all(table):
            seen.add(table)
            out.append((name, table))
    return tuple(out)


def _face(card: str) -> int:
    return FACE_INDEX[card.split(".")[0]]


def _evidence(view: JsonDict) -> tuple[list[tuple[int, int]], list[tuple[int, list[int]]]]:
    """Right (previous, card) pairs, and wrong facts: (previous, cards) where the cards
    played in order were not all right (a single wrong card, a wrong string, or each
    card of a correct no play alone)."""
    rnd = view["round"]
    main = [_face(m["card"]) for m in rnd["main"]]
    starters = sum(1 for m in rnd["main"] if m["starter"])
    right = [(main[i - 1], main[i]) for i in range(max(1, starters), len(main))]
    wrong: list[tuple[int, list[int]]] = []
    for t in rnd["turns"]:
        prev = main[t["under"]]
        if t["kind"] == "play" and t["truth"] == "wrong":
            wrong.append((prev, [_face(c) for c in t["cards"]]))
        elif t["kind"] == "no_play" and t["truth"] == "correct":
            wrong += [(prev, [_face(c)]) for c in t["cards"]]
    return right, wrong


def survivors(view: JsonDict) -> list[tuple[bool, ...]]:
    right, wrong = _evidence(view)
    out = []
    for _, table in hypotheses():
        if not all(table[p * FACE_COUNT + c] for p, c in right):
            continue
        ok = True
        for prev, cards in wrong:
            p, all_right = prev, True
            for c in cards:
                if not table[p * FACE_COUNT + c]:
                    all_right = False
                    break
                p = c
            if all_right:
                ok = False
                break
        if ok:
            out.append(table)
    return out


def _band(face: int) -> int:
    return 0 if RANK[face] <= 4 else 1 if RANK[face] <= 9 else 2


def _features(face: int) -> tuple[int, int, int]:
    return (COLOR[face], RANK[face] % 2, _band(face))


def _similar(a: int, b: int) -> int:
    return sum(x == y for x, y in zip(_features(a), _features(b), strict=True))


def _fallback(view: JsonDict, hand: list[str], rng: random.Random) -> str:
    right, _ = _evidence(view)
    last = _face(view["round"]["main"][-1]["card"])
    recent = [c for p, c in right[-20:] if _similar(p, last) >= 2] or [c for _, c in right[-5:]]
    if not recent:
        return rng.choice(hand)
    scores = {card: max(_similar(_face(card), c) for c in recent) for card in hand}
    best = max(scores.values())
    return rng.choice([c for c in hand if scores[c] == best])


def novice_bot(view: JsonDict, rng: random.Random) -> JsonDict:
    phase = view["phase"]
    if phase == "rule_setup":
        return dealer_bot(view, rng)
    if phase != "turn":
        if phase == "post_play":
            return {"type": "pass"}
        return dict(rng.choice(explicit(view)))
    hand: list[str] = view["my_hand"]
    last = _face(view["round"]["main"][-1]["card"])
    alive = survivors(view)
    if not alive:
        return {"type": "play", "cards": [_fallback(view, hand, rng)], "prophet": "no"}
    votes = {card: sum(t[last * FACE_COUNT + _face(card)] for t in alive) for card in hand}
    all_wrong = sum(1 for t in alive if not any(t[last * FACE_COUNT + _face(c)] for c in hand))
    if all_wrong >= NO_PLAY_SHARE * len(alive):
        return {"type": "no_play", "prophet": "no"}
    best = max(votes.values())
    return {
        "type": "play",
        "cards": [rng.choice([c for c in hand if votes[c] == best])],
        "prophet": "no",
    }
