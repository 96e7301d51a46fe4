"""The Action phase (6): every action the active player may take next, and doing it.

The ``action`` decision (H.7) offers main actions (``by`` main, advance, faction, cube),
schemes, claims, the once-per-turn special-event actions and ``end``. ``menu_problem``
names the rule an action breaks, for ``apply``'s refusals.
"""

from __future__ import annotations

from engine.core import JsonDict
from engine.pax import board as b
from engine.pax import favor as fv
from engine.pax.actions import Problem, special_active
from engine.pax.flow import Ctx, Proc
from engine.pax.options import MAIN, do_main, iter_main_options, main_options, main_problem
from engine.pax.plots import claim_ok, claimable
from engine.pax.schemes import any_scheme, do_scheme, scheme_options, scheme_problem
from engine.pax.state import Table

MENU_BYS = ("main", "advance", "faction", "cube")


def claim_faction_problem(t: Table, card: object) -> Problem:
    """9.1, R35, R84: once per turn, a card in the game not yours, for whoever controls
    the largest lodge of its faction."""
    if t.turn.claimed_faction:
        return ("claimed", "You may claim one faction card per turn (9.1).")
    entry = next((fc for fc in t.fcards if fc[0] == card), None)
    if entry is None:
        return ("no_card", "That faction card is not in the game (9.1).")
    if entry[2] == t.active:
        return ("own_card", "That faction card is already yours (9.1).")
    f = t.g.cat.fc_faction[entry[0]]
    if not b.may_control_a_lodge(t, t.active, f) or b.largest_lodge_controller(t, f) != t.active:
        return ("no_lodge", "You must control the largest lodge of its faction (9.1, 9.2).")
    return None


def claim_faction_options(t: Table) -> list[JsonDict]:
    if t.turn.claimed_faction:
        return []
    return [
        {"type": "claim_faction", "card": fc[0]}
        for fc in t.fcards
        if claim_faction_problem(t, fc[0]) is None
    ]


def special_action_options(t: Table) -> list[JsonDict]:
    """S01 Congress, S08 Recruitment Press, S03 Investigators: once per turn each."""
    seat = t.active
    used = t.turn.specials_used
    out: list[JsonDict] = []
    if (
        special_active(t, "S01")
        and "S01" not in used
        and fv.can_pay(t, seat, fv.Bill([fv.ANY] * 5))
    ):
        out.append({"type": "congress"})
    if special_active(t, "S08") and "S08" not in used:
        codes = t.g.cat.factions
        out += [{"type": "press", "faction": codes[f]} for f in range(6) if t.favor[seat][f] >= 3]
    if special_active(t, "S03") and "S03" not in used:
        for q in range(t.g.players):
            if q == seat:
                continue
            out.append({"type": "investigate", "seat": q, "what": "hand"})
            if t.plot[q] is not None and not t.plot_revealed[q]:
                out.append({"type": "investigate", "seat": q, "what": "plot"})
    return out


def menu_options(t: Table) -> list[JsonDict]:
    t.pay_cache = {}  # nothing changes while listing: a bill is checked once
    try:
        return [
            *main_options(t, MAIN, MENU_BYS),
            *scheme_options(t),
            *claim_faction_options(t),
            *({"type": "claim_plot", "plot": p} for p in claimable(t, t.active)),
            *special_action_options(t),
            {"type": "end"},
        ]
    finally:
        t.pay_cache = None


def menu_quick(t: Table) -> JsonDict | None:
    """R79 cheaply: ``end`` when it is the only action, else None (cheap checks first)."""
    if next(iter_main_options(t, ("extort",), MENU_BYS), None) is not None:
        return None
    if any_scheme(t) or special_action_options(t) or claim_faction_options(t):
        return None
    others = tuple(k for k in MAIN if k != "extort")
    if next(iter_main_options(t, others, MENU_BYS), None) is not None:
        return None
    if claimable(t, t.active):
        return None
    return {"type": "end"}


EXACT = {
    "claim_faction": {"type", "card"},
    "claim_plot": {"type", "plot"},
    "congress": {"type"},
    "press": {"type", "faction"},
    "investigate": {"type", "seat", "what"},
    "end": {"type"},
}


def menu_problem(t: Table, a: JsonDict) -> Problem:
    """What is wrong with an action of the Action phase, or None: exactly the actions
    ``menu_options`` lists pass (a test checks it), and refusals name the rule."""
    kind = a.get("type")
    if kind in MAIN:
        return main_problem(t, a, MENU_BYS)
    if kind == "scheme":
        return scheme_problem(t, a)
    if kind not in EXACT:
        return ("unknown", f"'{kind}' is not an action of the Action phase (H.7).")
    if set(a) != EXACT[kind]:
        return ("malformed", f"A {kind} action has exactly the keys {sorted(EXACT[kind])} (H.7).")
    seat = t.active
    used = t.turn.specials_used
    if kind == "claim_faction":
        return claim_faction_problem(t, a["card"])
    if kind == "claim_plot":
        if t.turn.claimed_plot:
            return ("claimed", "You may claim one plot per turn (10.1).")
        if not isinstance(a["plot"], str) or not claim_ok(t, seat, a["plot"]):
            return ("plot_not_met", "You may not claim that plot now (10.1, 10.2, 10.5).")
    elif kind == "congress":
        if not special_active(t, "S01") or "S01" in used:
            return ("special", "Congress needs S01 active, once per turn (D).")
        if not fv.can_pay(t, seat, fv.Bill([fv.ANY] * 5)):
            return ("cannot_pay", "Congress costs 5 favor (S01).")
    elif kind == "press":
        if not special_active(t, "S08") or "S08" in used:
            return ("special", "Recruitment Press needs S08 active, once per turn (D).")
        codes = t.g.cat.factions
        if a["faction"] not in codes or t.favor[seat][codes.index(a["faction"])] < 3:
            return ("cannot_pay", "The Press takes 3 real tokens of one faction (R75).")
    elif kind == "investigate":
        if not special_active(t, "S03") or "S03" in used:
            return ("special", "Investigators need S03 active, once per turn (D).")
        q = a["seat"]
        if type(q) is not int or q == seat or not 0 <= q < t.g.players:
            return ("investigate", "Look at another player's hand or plot (S03).")
        if a["what"] == "plot":
            if t.plot[q] is None or t.plot_revealed[q]:
                return ("investigate", "That player has no face-down plot (S03).")
        elif a["what"] != "hand":
            return ("investigate", "what is 'hand' or 'plot' (H.7).")
    return None


def do_menu_action(t: Table, ctx: Ctx, a: JsonDict) -> Proc[None]:
    seat = t.active
    kind = a["type"]
    if kind in MAIN:
        yield from do_main(t, ctx, a)
    elif kind == "scheme":
        yield from do_scheme(t, ctx, a)
    elif kind == "claim_faction":
        t.turn.claimed_faction = True
        for fc in t.fcards:
            if fc[0] == a["card"]:
                src = ["display"] if fc[1] is None else ["faction", fc[1]]
                if fc[1] != seat:
                    t.step("move", card=fc[0], **{"from": src, "to": ["faction", seat]})
                fc[1] = seat
                fc[2] = seat  # R37, R84
    elif kind == "claim_plot":
        p = a["plot"]
        t.turn.claimed_plot = True
        if p == t.plot[seat] and not t.plot_revealed[seat]:
            t.plot_revealed[seat] = True
            t.step("move", card=p, **{"from": ["plot", seat], "to": ["plot", seat]})
        t.disks[seat] -= 1
        t.claims_on.setdefault(p, []).append(seat)
        t.claims_on[p].sort()
        t.step("disk", seat=seat, **{"from": "supply", "to": [p, "on"]})
    elif kind == "congress":
        t.turn.specials_used.append("S01")
        yield from fv.pay(t, ctx, seat, fv.Bill([fv.ANY] * 5))
        t.turn.main_allowed += 1
    elif kind == "press":
        t.turn.specials_used.append("S08")
        fv.spend(t, seat, t.g.cat.factions.index(a["faction"]), 3)  # R75
        t.turn.main_allowed += 1
    elif kind == "investigate":
        t.turn.specials_used.append("S03")
        q = a["seat"]
        cards = list(t.hands[q]) if a["what"] == "hand" else [t.plot[q]]
        t.step("seen", seat=seat, of=q, cards=cards, private=[seat])
