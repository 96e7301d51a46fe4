"""Schemes: the chain, Quick Favor and the 17 abilities (8, A.1, R32-R34, R64, R65).

A scheme is ``{"type": "scheme", "card", "use"}`` with ``use`` ability, quick or both
(the Magistrates passive). Bonus abilities raise a ``bonus`` decision (the action with
``by: "scheme"``, or decline); Specials raise a ``special`` decision.
"""

from __future__ import annotations

from typing import Any

from engine.core import JsonDict
from engine.pax import board as b
from engine.pax import favor as fv
from engine.pax.actions import BONUS, Problem, flag_reveal, parse_pos, special_active
from engine.pax.flow import Ctx, Proc
from engine.pax.options import do_main, main_options
from engine.pax.piles import at_map, discard_edict, edict_favor, move, return_plot_disks
from engine.pax.state import Card, Table

USES = ("ability", "quick", "both")


def joins(t: Table, c: Card) -> bool:
    """8.3.2: may card c join the chain after the last scheme?"""
    if not t.schemes:
        return True
    y = t.g.cat.cards[t.schemes[-1][0]]
    return (
        bool(set(c.factions) & set(y.factions))
        or c.rank == "A"
        or y.rank == "A"
        or c.rank == "K"
        or (c.affiliation == "FM" and special_active(t, "S06"))
    )


def scheme_problem(t: Table, a: JsonDict) -> Problem:
    if set(a) != {"type", "card", "use"}:
        return ("malformed", "A scheme has exactly the keys type, card, use (H.7).")
    seat = t.active
    if a["card"] not in t.hands[seat]:
        return ("not_in_hand", "A scheme is played from your hand (8.1).")
    if a["use"] not in USES:
        return ("scheme_use", f"use is one of {list(USES)} (H.7).")
    if t.turn.chain_ended:
        return ("chain_ended", "A Crown ended this turn's scheme chain (8.3.4, R32).")
    if not joins(t, t.g.cat.cards[a["card"]]):
        return ("chain", "The card does not join the chain: no shared faction (8.3.2).")
    if a["use"] in ("quick", "both") and t.turn.quick_used:
        return ("quick_used", "Quick Favor is once per turn (8.4).")
    if a["use"] == "both" and not fv.passive(t, b.MAG):
        return ("scheme_use", "Quick Favor with the ability needs the Magistrates card (C).")
    return None


def scheme_options(t: Table) -> list[JsonDict]:
    out = []
    for card in dict.fromkeys(t.hands[t.active]):
        for use in USES:
            a = {"type": "scheme", "card": card, "use": use}
            if scheme_problem(t, a) is None:
                out.append(a)
    return out


def any_scheme(t: Table) -> bool:
    """Whether ``scheme_options(t)`` lists something (stops at the first)."""
    for card in dict.fromkeys(t.hands[t.active]):
        for use in USES:
            if scheme_problem(t, {"type": "scheme", "card": card, "use": use}) is None:
                return True
    return False


def do_scheme(t: Table, ctx: Ctx, a: JsonDict) -> Proc[None]:
    seat = t.active
    card = a["card"]
    c = t.g.cat.cards[card]
    quick = a["use"] in ("quick", "both")
    t.hands[seat].remove(card)
    t.schemes.append((card, quick))
    move(t, card, ["hand", seat], ["scheme"])
    flag_reveal(t, card)
    if c.rank == "K":
        t.turn.chain_ended = True
    if quick:
        t.turn.quick_used = True
        yield from fv.gain_value(t, ctx, seat, c)
    if a["use"] in ("ability", "both"):
        yield from ability(t, ctx, c)


def ability(t: Table, ctx: Ctx, c: Card) -> Proc[None]:
    """8.2: Bonus (act now or decline), Buff (this turn), Special (now or decline)."""
    seat = t.active
    kind = t.g.cat.ability_type[c.ability]
    if c.ability == "ACE":
        yield from fv.gain_value(t, ctx, seat, c)  # R33: not Quick Favor
        return
    if c.ability == "CROWN":
        t.turn.main_allowed += 1  # R34
        return
    if kind == "Buff":
        t.turn.buffs.append(c.ability)
        return
    if kind == "Bonus":
        main = BONUS[c.ability]
        ans = yield from ctx.ask(
            seat,
            "bonus",
            lambda: [*main_options(t, (main,), ("scheme",)), {"type": "decline"}],
        )
        if ans["type"] != "decline":
            yield from do_main(t, ctx, ans)
        return
    ans = yield from ctx.ask(seat, "special", lambda: [*special_options(t, c), {"type": "decline"}])
    if ans["type"] != "decline":
        yield from do_special(t, ctx, ans)


def swappable(t: Table, seat: int, i: int) -> bool:
    """G02: face up, and no other player has more disks on it than you."""
    if not t.up[i]:
        return False
    mine = b.disks_on(t, seat, i)
    return all(b.disks_on(t, q, i) <= mine for q in range(t.g.players) if q != seat)


def special_options(t: Table, c: Card) -> list[JsonDict]:
    seat = t.active
    ab = c.ability
    out: list[JsonDict] = []
    if ab == "G02":
        ok = [i for i in range(len(t.cards)) if swappable(t, seat, i)]
        out = [
            {"type": "swap", "a": t.pos(x), "b": t.pos(y)}
            for j, x in enumerate(ok)
            for y in ok[j + 1 :]
        ]
    elif ab == "G04":
        out = [{"type": "take_edict", "edict": e[0]} for es in t.edicts for e in es if e[1] > 0]
    elif ab == "G10":
        if t.plot_deck and t.plot[seat] is not None:
            out = [{"type": "draw_plot"}]
    elif ab == "G13":
        out = [{"type": "take", "card": x} for x in t.court if x is not None]
        out.append({"type": "take", "card": None})
    elif ab == "G15":
        out = [{"type": "borrow", "card": fc[0]} for fc in t.fcards if fc[1] != seat]
    return out


def do_special(t: Table, ctx: Ctx, a: JsonDict) -> Proc[None]:
    seat = t.active
    kind = a["type"]
    if kind == "swap":
        x = parse_pos(t, a["a"])
        y = parse_pos(t, a["b"])
        assert x is not None
        assert y is not None
        cx, cy = t.cards[x], t.cards[y]
        t.cards[x], t.cards[y] = cy, cx
        t.slots[x], t.slots[y] = t.slots[y], t.slots[x]
        move(t, cx, at_map(t, x), at_map(t, y))
        move(t, cy, at_map(t, y), at_map(t, x))
    elif kind == "take_edict":
        for holder, es in enumerate(t.edicts):
            for idx, e in enumerate(es):
                if e[0] == a["edict"]:
                    edict_favor(t, holder, idx, seat, 2)
                    if e[1] == 0:
                        discard_edict(t, holder, idx)  # R16
                    return
    elif kind == "draw_plot":
        old = t.plot[seat]
        new = t.plot_deck[0]
        assert old is not None
        t.step("seen", seat=seat, of=None, cards=[new], private=[seat])
        ans = yield from ctx.ask(
            seat,
            "keep_plot",
            [{"type": "keep_plot", "plot": p} for p in (old, new)],
            cards=[old, new],
        )
        t.plot_deck.pop(0)
        if ans["plot"] == new:
            revealed = t.plot_revealed[seat]
            t.plot[seat] = new
            t.plot_revealed[seat] = False
            move(t, new, ["plot_deck"], ["plot", seat], private=[seat])
            t.plot_deck.append(old)
            _plot_home(t, seat, old, revealed)
            return_plot_disks(t, old)  # R65
        else:
            t.plot_deck.append(new)
            move(t, new, ["plot_deck"], ["plot_deck"], private=[seat])
    elif kind == "take":
        if a["card"] is None:
            from engine.pax.piles import draw_to_hand

            for _ in range(2):
                draw_to_hand(t, seat)
        else:
            i = t.court.index(a["card"])
            t.court[i] = None
            t.hands[seat].append(a["card"])
            move(t, a["card"], ["court", i], ["hand", seat])
    elif kind == "borrow":
        for fc in t.fcards:
            if fc[0] == a["card"]:
                src: list[Any] = ["display"] if fc[1] is None else ["faction", fc[1]]
                fc[1] = seat
                move(t, fc[0], src, ["faction", seat])


def _plot_home(t: Table, seat: int, old: str, revealed: bool) -> None:
    move(t, old, ["plot", seat], ["plot_deck"], private=None if revealed else [seat])
