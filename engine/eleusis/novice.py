"""The novice scientist bot (NE-30.1), reading only its seat's view.

It keeps about 150 one-attribute hypotheses, each a judgement of a candidate face given
the previous main-line face: set rules ("red", "rank <= 7", "hearts or spades"),
relations to the previous card ("other colour", "higher", "same suit", ...) and simple
conditionals ("after an odd card play black"). It drops every hypothesis the public
evidence contradicts (``view["round"]["main"]`` and ``view["round"]["turns"]``) and plays
the card that most surviving hypotheses call right (ties at random). It never plays
strings and never declares prophet (so it fits E31's autopilot; as an autopilot prophet it
calls by the majority of its hypotheses, E29); it declares no play when at least 80% of the
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


def _step(k: int, p: int, c: int) -> bool:
    return (RANK[c] - RANK[p]) % 13 == k


def _set_rule(u: Callable[[int], bool], p: int, c: int) -> bool:
    return u(c)


def _conditional(
    s: Callable[[int], bool], o: Callable[[int], bool], same: bool, p: int, c: int
) -> bool:
    return (s(p) == o(c)) == same


def _odd(f: int) -> bool:
    return RANK[f] % 2 == 1


def _red(f: int) -> bool:
    return IS_RED[f]


def _face_card(f: int) -> bool:
    return IS_FACE[f]


def _high(f: int) -> bool:
    return RANK[f] >= 8


def _prime(f: int) -> bool:
    return IS_PRIME[f]


def _hearts_spades(f: int) -> bool:
    return SUIT[f] in (2, 3)


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
        preds.append((f"not suit {s}", partial(_suit_in, tuple(x for x in range(4) if x != s))))
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
    for k in range(1, 13):
        rel.append((f"step {k} mod 13", partial(_step, k)))
    return rel


@functools.cache
def hypotheses() -> tuple[tuple[str, tuple[bool, ...]], ...]:
    """(name, truth table over previous x candidate face), behaviours deduplicated."""
    judges: list[tuple[str, Judge]] = [(name, partial(_set_rule, u)) for name, u in _unary()]
    judges += _relations()
    splits: list[tuple[str, Callable[[int], bool]]] = [
        ("odd", _odd),
        ("red", _red),
        ("face", _face_card),
        ("high", _high),
        ("prime", _prime),
        ("hearts-spades", _hearts_spades),
    ]
    for sname, split in splits:
        for oname, outcome in splits:
            for same in (True, False):
                then = oname if same else f"not {oname}"
                judges.append(
                    (
                        f"if prev {sname} then {then} else the other",
                        partial(_conditional, split, outcome, same),
                    )
                )
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


def _call(view: JsonDict, rng: random.Random) -> JsonDict:
    """A call by the majority of the surviving hypotheses (as autopilot, E29)."""
    pending = view["round"]["pending"]
    alive = survivors(view)
    if not alive:
        return dict(rng.choice(explicit(view)))
    last = _face(view["round"]["main"][-1]["card"])
    faces = [_face(c) for c in pending["cards"]]
    if pending["kind"] == "play":
        right = 0
        for t in alive:
            p, ok = last, True
            for f in faces:
                if not t[p * FACE_COUNT + f]:
                    ok = False
                    break
                p = f
            right += ok
        return {"type": "call", "verdict": "right" if 2 * right >= len(alive) else "wrong"}
    votes = [sum(t[last * FACE_COUNT + f] for t in alive) for f in faces]
    if 2 * max(votes) < len(alive):
        return {"type": "call", "verdict": "correct"}
    best = max(votes)
    return {
        "type": "call",
        "verdict": "wrong",
        "card": rng.choice([c for c, v in zip(pending["cards"], votes, strict=True) if v == best]),
    }


def novice_bot(view: JsonDict, rng: random.Random) -> JsonDict:
    phase = view["phase"]
    if phase == "rule_setup":
        return dealer_bot(view, rng)
    if phase == "prophet_call":
        return _call(view, rng)
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
