"""15.5.1's payment help in the acting seat's view (docs/pax.md P-87): for each offered
action, how many payment units it opens, that it can be paid, and one suggested payment.

The suggested payment is ``view.suggest_payment``'s, without an ``apply`` per action: a
payment (``favor.pay``, one ``pay`` decision per unit, 2.2.4) is asked right after the
answer that starts it, and only these answers start one:

- a main action of the Action phase or of a Bonus (7.1-7.6, 8.2): Scout, Influence,
  Organize, Expel and Oust pay their bill first thing (``start`` changes nothing the bill
  or its payment reads); Extort pays nothing;
- Congress (S01): 5 favor;
- a Court pick of two cards with the Chamberlain's (11.3, R42): 1 favor;
- a ``pay`` answer: the units of its bill that are still to pay.

Any other answer reaches a payment, if ever, only through a decision with two options or
more (a forced decision, R79, never starts one: a forced Bonus or Special is ``decline``,
a forced Court pick is none, a forced Action phase menu is ``end``), so its suggestion is
[] (tests/engine/pax/test_payhelp.py checks the result against ``suggest_payment`` over
seeded random games). The bill is the engine's own (``scout_bill`` ... ``oust_bill``),
paid one unit at a time with the first option ``favor.pay_options`` offers; a unit with
one option is the engine's (R79): it is not in ``payment``, as ``suggest_payment`` does
not list it, but in ``forced``, so a client can say which token the engine takes.
"""

from __future__ import annotations

from engine.core import JsonDict
from engine.pax import actions as ac
from engine.pax import favor as fv
from engine.pax.engine import legal_actions
from engine.pax.oust import oust_bill
from engine.pax.state import State, Table, thaw

BILLS = {
    "scout": ac.scout_bill,
    "influence": ac.influence_bill,
    "organize": ac.organize_bill,
    "expel": ac.expel_bill,
    "oust": oust_bill,
}
"""The main actions that pay before anything else, with their bills (Extort pays nothing)."""

STARTERS = frozenset({"action", "bonus", "court"})
"""The decisions whose answers may start a payment (besides ``pay`` itself)."""


def bill_of(t: Table, a: JsonDict) -> fv.Bill | None:
    """The bill the answer ``a`` starts at once, or None when it starts none."""
    kind = a.get("type")
    if kind in BILLS and a.get("by") is not None:
        return BILLS[kind](t, a)
    if kind == "congress":
        return fv.Bill([fv.ANY] * 5)
    if kind == "court" and len(a.get("cards") or ()) == 2:
        return fv.Bill([fv.ANY])
    return None


def _copy(bill: fv.Bill) -> fv.Bill:
    return fv.Bill(list(bill.units), list(bill.slot_of), list(bill.budgets), bill.d)


def _take(t: Table, seat: int, bill: fv.Bill, i: int, choice: JsonDict) -> None:
    """Pay unit i of ``bill`` with ``choice`` as ``favor.pay`` does (on this copy: the
    pool and the log are left alone)."""
    cost = fv.settle_unit(t, bill, i, choice)
    if cost is not None:
        t.favor[seat][cost[0]] -= cost[1]


def follow(t: Table, seat: int, bill: fv.Bill, i: int) -> tuple[list[JsonDict], list[JsonDict]]:
    """The ``pay`` answers of units i on, the first offered option at each: those the
    seat chooses, and those with one option, which the engine gives itself (R79).
    ``t.favor`` and ``bill`` change: pass copies."""
    chosen: list[JsonDict] = []
    forced: list[JsonDict] = []
    for u in range(i, len(bill.units)):
        options = fv.pay_options(t, seat, bill, u)
        (chosen if len(options) > 1 else forced).append(options[0])
        _take(t, seat, bill, u, options[0])
    return chosen, forced


def open_bill(state: State, t: Table) -> tuple[fv.Bill, int] | None:
    """At a ``pay`` decision: the bill being paid, its reductions so far taken, and the
    index of the unit asked now; None if the answers do not show it (never expected).

    The answers since the program's origin end with the units paid so far (one ``pay``
    each, forced ones too); the answer before them started the bill. Nothing a bill reads
    changes while it is paid (only supplies and the pool do), so the bill made now is the
    one being paid."""
    answers = state.answers
    paid = 0
    while paid < len(answers) and answers[-1 - paid][1].get("type") == "pay":
        paid += 1
    if paid == len(answers):
        return None
    bill = bill_of(t, answers[-1 - paid][1])
    context = state.decision or {}
    if bill is None or len(bill.units) != paid + context.get("units_left", -1):
        return None
    for u in range(paid):
        if answers[len(answers) - paid + u][1]["faction"] is None:
            fv.reduce_unit(bill, u)
    return bill, paid


def _entry(units: int, paid: tuple[list[JsonDict], list[JsonDict]] | None = None) -> JsonDict:
    payment, forced = paid if paid is not None else ([], [])
    return {"units": units, "payable": True, "payment": payment, "forced": forced}


def payment_help(state: State, seat: int | None) -> list[JsonDict]:
    """One entry per action of ``legal_actions(state, seat)``, in its order (P-87):
    ``units`` (the payment units the action opens at once, reductions and units the
    engine pays included; 0: it costs nothing), ``payable`` (always true: R80 offers
    only what can be paid), ``payment`` (``suggest_payment``'s ``pay`` actions) and
    ``forced`` (the ``pay`` answers the engine gives itself on the way, R79).
    [] for a seat not to act and for a spectator (None)."""
    actions = [] if seat is None else legal_actions(state, seat)
    if not actions or seat is None:
        return []
    kind = state.pending[-1][1]
    if kind != "pay" and kind not in STARTERS:
        return [_entry(0) for _ in actions]
    t = thaw(state)
    saved = list(t.favor[seat])
    if kind == "pay":
        return _pay_entries(state, t, seat, actions, saved)
    out = []
    seen: dict[tuple[object, ...], JsonDict] = {}
    for a in actions:
        bill = bill_of(t, a)
        if bill is None:
            out.append(_entry(0))
            continue
        key = (tuple(bill.units), tuple(bill.slot_of), tuple(bill.budgets), bill.d)
        if key not in seen:
            seen[key] = _entry(len(bill.units), follow(t, seat, bill, 0))
            t.favor[seat][:] = saved
        found = seen[key]
        out.append(
            {
                **found,
                "payment": [dict(p) for p in found["payment"]],
                "forced": [dict(p) for p in found["forced"]],
            }
        )
    return out


def _pay_entries(
    state: State, t: Table, seat: int, actions: list[JsonDict], saved: list[int]
) -> list[JsonDict]:
    opened = open_bill(state, t)
    left = int((state.decision or {}).get("units_left", 1)) - 1
    out = []
    for a in actions:
        if left == 0:
            out.append(_entry(0))
        elif opened is None:  # not expected (open_bill's test): the engine's own way
            from engine.pax.view import suggest_payment

            out.append(_entry(left, (suggest_payment(state, seat, a), [])))
        else:
            bill, i = opened
            bill = _copy(bill)
            _take(t, seat, bill, i, a)
            out.append(_entry(left, follow(t, seat, bill, i + 1)))
            t.favor[seat][:] = saved
    return out
