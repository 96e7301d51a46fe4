"""B-Oust (14.7.5): the automa attacks. It pays no matching cost but puts every favor
token it holds into the pool, +1 initial strength each (R54); the human defender commits
a card (15.2.1), then the automa turns the top of the luminary deck (15.2.3); it always
calls after that round; if it wins, the defender's disks go home and the defender names
the favor it gains (a decision of theirs, 7.6.8 D); no cube (R54).
"""

from __future__ import annotations

from engine.pax import board as b
from engine.pax import favor as fv
from engine.pax.actions import disk_step, slot_ref
from engine.pax.automa.base import favor_words, humans_on, say, where
from engine.pax.flow import Ctx, Proc
from engine.pax.oust import choose, commit, nonce, reveal, winner_of
from engine.pax.state import Oust, Table


def defender(t: Table, bot: int, target: int) -> int:
    """14.7.5 step 1: the human with the most disks on the target; ties to the first in
    turn order after the automa."""
    n = t.g.players
    order = [(bot + k) % n for k in range(1, n)]
    return max(order, key=lambda q: (b.disks_on(t, q, target), -order.index(q)))


def b_oust(t: Table, ctx: Ctx, bot: int, target: int, acting: int, rule: str) -> Proc[None]:
    assert humans_on(t, bot, target) > 0
    d = defender(t, bot, target)
    k = b.disks_on(t, d, target)
    spent = list(t.favor[bot])
    for f in range(6):
        fv.spend(t, bot, f, spent[f])
    init = [b.init_strength(t, bot, target) + sum(spent), b.init_strength(t, d, target)]
    favoured = None if init[0] == init[1] else (bot if init[0] > init[1] else d)
    say(
        t,
        rule,
        target,
        f"ousts {k} disk(s) of seat {d} from {where(t, target)}, acting from "
        f"{where(t, acting)}: it pays {favor_words(t, spent)} for +{sum(spent)} strength; "
        f"strengths {init[0]} against {init[1]}",
    )
    t.oust = Oust(bot, d, acting, target, k, 1, init, favoured, [0, 0], [], [], t.seq)
    o = t.oust
    dc = yield from commit(t, ctx, d)
    ac = yield from choose(t, ctx, bot)
    reveal(t, bot, ac)
    reveal(t, d, dc)
    t.step("oust", round=1, cards=[ac, dc], nonces=[nonce(t, bot, ac), nonce(t, d, dc)])
    won = winner_of(o, False)  # 14.7.5 step 5: the automa always calls
    t.step("oust_end", winner=won)
    t.oust = None
    say(
        t,
        rule,
        target,
        f"turns {ac or 'no card'} against {dc or 'no card'}: "
        + ("it wins the Oust" if won == bot else f"seat {d} holds"),
    )
    if won != bot:
        return
    for _ in range(k):
        slot = b.remove_disk(t, d, target)
        t.disks[d] += 1
        disk_step(t, d, slot_ref(t, target, slot), "supply")
    yield from fv.gain_any(t, ctx, d, k)
