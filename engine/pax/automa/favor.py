"""The automa and favor (14.6): what it picks, how it overturns, how it pays Conspire;
B-Extort (14.7.3); the favor it gains after losing an Oust as defender (14.7.6).

None of this asks anyone: every choice follows 14.6 and the rulings P-30 and P-31.
"""

from __future__ import annotations

from engine.pax import board as b
from engine.pax.actions import special_active
from engine.pax.automa.base import favor_words, mark, preference, say, where
from engine.pax.state import PLACARD, Card, Table


def _gainable(t: Table, bot: int, f: int) -> int:
    """Tokens of f the automa could get: the pool's and every human's (2.2.6)."""
    return t.pool[f] + sum(t.favor[q][f] for q in range(t.g.players) if q != bot)


def pick(t: Table, bot: int, allowed: list[int], order: list[int], taken: list[int]) -> int:
    """14.6, P-30: the first faction of ``order`` that ``allowed`` permits and of which a
    token can still be gained beyond ``taken``; the first allowed one when none can."""
    ok = [f for f in order if f in allowed]
    for f in ok:
        if _gainable(t, bot, f) > taken[f]:
            return f
    return ok[0]


def victim(t: Table, bot: int, f: int) -> int | None:
    """14.6: the human holding the most of f; ties to the first from the bot's left."""
    n = t.g.players
    order = [(bot + k) % n for k in range(1, n)]
    best = max(order, key=lambda q: (t.favor[q][f], -order.index(q)))
    return best if t.favor[best][f] > 0 else None


def bot_gain(t: Table, bot: int, f: int, n: int) -> int:
    """Gain n of f: the pool first, then always overturn (14.6), one token at a time
    from the human holding the most at that moment (P-31). Returns what was gained."""
    code = t.g.cat.factions[f]
    take = min(n, t.pool[f])
    if take:
        t.pool[f] -= take
        t.favor[bot][f] += take
        t.step("favor", faction=code, n=take, **{"from": "pool", "to": bot})
    while take < n:
        q = victim(t, bot, f)
        if q is None:
            break
        t.favor[q][f] -= 1
        t.favor[bot][f] += 1
        t.step("favor", faction=code, n=1, **{"from": q, "to": bot})
        take += 1
    return take


def value(t: Table, bot: int, c: Card, disks: int, taken: list[int]) -> list[int]:
    """An Extort yield (2.6.3, R08) with the automa's picks (14.6: the card's top, then
    its bottom). ``taken`` is what the yield already holds, for P-30."""
    vec = [0] * 6
    if c.extort_per_disk is not None:
        vec[c.top] += c.extort_per_disk * disks
        return vec
    order = [c.top] if c.bottom is None else [c.top, c.bottom]
    for sym in c.favor:
        if sym in ("T", "F"):
            f = c.top
        elif sym == "B":
            f = c.bottom if c.bottom is not None else c.top
        else:
            f = pick(t, bot, order, order, [x + y for x, y in zip(taken, vec, strict=True)])
        vec[f] += 1
    return vec


def b_extort(t: Table, bot: int, target: int, rule: str) -> None:
    """14.7.3: as 7.3 with the automa as extorter: Whisper, the extortion limit, gains
    with overturn, Conspire from the favor just gained (skipped under S07)."""
    yielded = [target]
    if target != PLACARD:
        rank = b.card(t, target).rank
        for w in t.g.nbrs[target]:
            if (
                t.up[w]
                and b.card(t, w).rank == rank
                and w not in t.turn.yielded
                and bot in t.slots[w]
            ):
                yielded.append(w)
    t.turn.yielded.extend(yielded)
    vec = [0] * 6
    for y in yielded:
        if y == PLACARD:
            part = [1 if f in t.g.contact[bot] else 0 for f in range(6)]
        else:
            part = value(t, bot, b.card(t, y), b.total_on(t, y), vec)
        vec = [x + z for x, z in zip(vec, part, strict=True)]
    whisper = [where(t, w) for w in yielded[1:]]
    say(
        t,
        rule,
        target,
        f"extorts {where(t, target)}"
        + (f" (whispering: {', '.join(whisper)})" if whisper else "")
        + f": it gains {favor_words(t, vec)}",
    )
    gained = [bot_gain(t, bot, f, vec[f]) if vec[f] else 0 for f in range(6)]
    if not special_active(t, "S07"):
        conspire(t, bot, target, yielded, gained)


def conspire(t: Table, bot: int, target: int, yielded: list[int], gained: list[int]) -> None:
    """7.3.6 and 14.6: 1 favor per other player's disk on a card that yielded, recipients
    in turn order after the automa; from the favor just gained first, then the rest of
    its supply (R23); the target's bottom faction first, other factions in faction order,
    its top faction last (P-31). What it cannot pay is waived."""
    n = t.g.players
    owed = [0] * n
    for i in yielded:
        if i == PLACARD:
            continue
        for s in t.slots[i]:
            if s is not None and s != bot:
                owed[s] += 1
    if not any(owed):
        return
    c = b.card(t, target)
    rest = [f for f in range(6) if f not in c.factions]
    order = ([c.bottom] if c.bottom is not None else []) + rest + [c.top]
    fresh = list(gained)
    codes = t.g.cat.factions
    for k in range(1, n):
        q = (bot + k) % n
        for _ in range(owed[q]):
            held = t.favor[bot]
            f = next((f for f in order if fresh[f] and held[f]), None)
            if f is None:
                f = next((f for f in order if held[f]), None)
            if f is None:
                return
            if fresh[f]:
                fresh[f] -= 1
            held[f] -= 1
            t.favor[q][f] += 1
            t.step("favor", faction=codes[f], n=1, **{"from": bot, "to": q})


def defend_gain(t: Table, bot: int, target: int, k: int) -> None:
    """7.6.8 D and 14.7.6: the automa lost k disks on ``target``: it gains k favor, each
    named by 14.6 with the target card as the card concerned (P-30), overturning."""
    order = preference(t, bot, target)
    vec, at = [0] * 6, mark(t)
    for _ in range(k):
        f = pick(t, bot, order, order, [0] * 6)
        vec[f] += 1
        bot_gain(t, bot, f, 1)
    say(
        t,
        "defend",
        target,
        f"loses {k} disk(s) on {where(t, target)} and gains {favor_words(t, vec)}",
        at,
    )
