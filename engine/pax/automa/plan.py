"""PLAN targeting (14.5.5) and the scripts of Alessandro Cagliostro (14.10.3) and Adam
Weishaupt (14.10.4), with the f-search (14.10.5, R62). Letters in AW's order, which R61
gives AC too: a, b, c, d (swap if P matches B), e (Oust or Expel), f.

``kind`` is what letter a) and b) test: FM-or-RC cards for AC, Aces and Crowns for AW.
"""

from __future__ import annotations

from engine.pax import board as b
from engine.pax.actions import flag_reveal
from engine.pax.automa.base import (
    Letter,
    b_expel,
    b_influence,
    b_scout,
    bot_def,
    can_expel,
    can_influence,
    facing,
    factions,
    follow,
    humans_on,
    mark,
    move_token,
    only_bot,
    place,
    ref_pos,
    say,
    shares,
    where,
)
from engine.pax.automa.favor import b_extort
from engine.pax.automa.oust import b_oust
from engine.pax.automa.scripts import expel, influence, oust
from engine.pax.flow import Ctx, Proc
from engine.pax.geometry import BOT_FRAME, diagram_index, frame_step
from engine.pax.piles import draw, move
from engine.pax.state import Card, Table


def special(t: Table, c: Card) -> bool:
    """What a) and b) look for: FM or RC (AC), an Ace or a Crown (AW)."""
    if bot_def(t).id == "AW":
        return c.rank in ("A", "K")
    return c.affiliation in ("FM", "RC")


def reveal_plan(t: Table, bot: int) -> int:
    """14.5.5 steps 1, 2 and 5: P from the deck's top; its strength s (R49: an Ace or a
    Crown counts 1); s = 1 and no PLAN card when nothing can be drawn."""
    card = draw(t)
    if card is None:
        say(t, "plan", None, "has no PLAN card to turn: it counts strength 1")
        return 1
    t.plan = card
    move(t, card, ["deck"], ["plan"])
    flag_reveal(t, card)
    s = t.g.cat.cards[card].strength
    return s if isinstance(s, int) else 1


def plan_target(t: Table, bot: int, ref: int, s: int) -> tuple[int, int]:
    """14.5.5 step 3: from direction number s in B's frame, clockwise past off-map
    positions; returns (bot direction index d, target T)."""
    start = diagram_index(bot_def(t).diagram, s)
    for k in range(6):
        q = t.g.index.get(frame_step(ref_pos(t, bot, ref), facing(t, bot), start + k))
        if q is not None:
            return (start + k) % 6, q
    raise AssertionError("a bot card with no map neighbour")


def swap(rule: str, y: int) -> Letter:
    """B-Swap (14.7.4): B-Expel with P as the replacement, then B-Influence on P when
    it can be done (P-35)."""

    def run(t: Table, ctx: Ctx) -> Proc[None]:
        bot = t.active
        label, at = where(t, y), mark(t)
        words = b_expel(t, bot, y)
        text = f"swaps {label} for its PLAN card: it {words}"
        if b.usable(t, bot, y) > 0 and t.disks[bot] > 0:
            text += f"; it influences it: {b_influence(t, bot, y)}"
        say(t, rule, y, text, at)
        follow(t, bot, y)
        yield from ()

    return Letter(rule, y, run)


def fill_and_oust(rule: str, y: int, acting: int) -> Letter:
    """AC a2: bot disks into all of T's usable open slots, free, then B-Oust(T)."""

    def run(t: Table, ctx: Ctx) -> Proc[None]:
        bot = t.active
        n, at = 0, mark(t)
        while b.usable(t, bot, y) > 0 and t.disks[bot] > 0:
            place(t, bot, y)
            n += 1
        say(t, rule, y, f"puts {n} free disk(s) on {where(t, y)}", at)
        yield from b_oust(t, ctx, bot, y, acting, rule)
        follow(t, bot, y)

    return Letter(rule, y, run)


def letters(t: Table, bot: int, y: int, ref: int) -> Letter | None:
    """Step 3's a) to e) and f1 on target y with ``ref`` as B (R44: a letter holds when
    its action can be done). f2 is the caller's (the f-search tests these, R62)."""
    c = b.card(t, y)
    hum = humans_on(t, bot, y) > 0
    spec = special(t, c)
    p = None if t.plan is None else t.g.cat.cards[t.plan]
    if spec:  # a
        if can_influence(t, bot, y) and not hum:
            return influence("a1", y)
        if hum:
            return fill_and_oust("a2", y, ref) if bot_def(t).id == "AC" else oust("a2", y, ref)
    if not hum and not spec and p is not None and special(t, p):  # b (R60)
        return swap("b", y)
    if shares(t, bot, y, ref) and bot not in t.slots[y] and can_influence(t, bot, y):  # c
        return influence("c", y)
    if (
        not hum
        and not shares(t, bot, y, ref)
        and p is not None
        and set(p.factions) & set(factions(t, bot, ref))
    ):  # d (R60)
        return swap("d", y)
    if hum:  # e1
        return oust("e1", y, ref)
    if not spec and can_expel(t):  # e2
        return expel("e2", y)
    if only_bot(t, bot, y) and can_influence(t, bot, y):  # f1
        return influence("f1", y)
    return None


def plan_script(t: Table, ctx: Ctx, bot: int) -> Proc[bool]:
    """AC and AW steps 1 to 3 (step 4, the token, is the letters' ``follow``)."""
    ref = t.token
    assert ref is not None
    s = reveal_plan(t, bot)
    d, target = plan_target(t, bot, ref, s)
    plan = "no PLAN card" if t.plan is None else f"its PLAN card {t.plan}"
    say(
        t,
        "plan",
        target,
        f"turns {plan} (strength {s}): from {where(t, ref)} it points {BOT_FRAME[d]} "
        f"at {where(t, target)}",
    )
    if not t.up[target]:  # step 2
        say(t, "plan", target, f"turns {where(t, target)} face up (B-Scout)")
        b_scout(t, target)
    letter = letters(t, bot, target, ref)
    if letter is not None:
        yield from letter.run(t, ctx)
        return True
    if only_bot(t, bot, target) and b.usable(t, bot, target) == 0:  # f2
        yield from f_search(t, ctx, bot, target, ref, d)
        return True
    return False


def f_search(t: Table, ctx: Ctx, bot: int, t0: int, ref: int, d: int) -> Proc[None]:
    """14.10.5, R62: T0's neighbours clockwise from direction d, skipping B and face-down
    cards; the first where a) to e) or f1 holds with T0 as B is acted on from T0;
    otherwise the automa Extorts T0. The token moves to T0 first either way."""
    pos = t.g.positions[t0]
    for k in range(6):
        y = t.g.index.get(frame_step(pos, facing(t, bot), d + k))
        if y is None or y == ref or not t.up[y]:
            continue
        letter = letters(t, bot, y, t0)
        if letter is not None:
            say(t, "f2", y, f"searches from {where(t, t0)}: its token moves there")
            move_token(t, t0)
            yield from letter.run(t, ctx)
            return
    say(t, "f2", t0, f"finds nothing to do around {where(t, t0)}: its token moves there")
    move_token(t, t0)
    if t0 not in t.turn.yielded:
        b_extort(t, bot, t0, "f2")
