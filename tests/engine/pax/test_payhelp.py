"""15.5.1's payment help in the view (docs/pax.md P-87): for the seat to act, one entry
per offered action with the payment units it opens, that it can be paid, and the engine's
suggested payment (``view.suggest_payment``, reached without an ``apply`` per action);
another seat's view and a spectator's carry none (15.4)."""

from __future__ import annotations

import random
from collections.abc import Generator
from typing import Any

import pytest

from engine.core import JsonDict
from engine.pax import engine as E
from engine.pax import flow
from engine.pax.engine import VARIANTS
from engine.pax.payhelp import open_bill, payment_help
from engine.pax.state import State, thaw
from engine.pax.view import suggest_payment, view
from tests.engine.pax.support import act, fav, favor, help_of, kinds, pay, put, ready, table

SEED = "seat-2"  # seat 0's contact is C15: PRO, MAG, SCH
INFLUENCE = {"type": "influence", "by": "main", "target": [4, 4], "n": 1}


def test_p87_each_offered_action_carries_its_units_and_a_payment_that_pays_it() -> None:
    t = table(3, SEED)
    put(t, (4, 4), "PIL016", [0, 1])
    favor(t, 0, NOB=6, PRO=6, ART=3)
    s = ready(t)
    v = view(s, 0)
    assert len(v["payment_help"]) == len(v["legal_actions"])
    assert all(h["payable"] for h in v["payment_help"])  # R80: only payable ones offered
    h = help_of(v, INFLUENCE)
    assert h["units"] == 3  # PIL016's next open slot: three icons (7.2.3)
    assert h["payment"] == [pay("NOB"), pay("NOB"), pay("PRO")]
    assert help_of(v, {"type": "end"}) == {
        "units": 0,
        "payable": True,
        "payment": [],
        "forced": [],
    }
    assert help_of(v, {"type": "extort", "by": "main", "target": "placard"})["units"] == 0
    after = act(s, INFLUENCE, *h["payment"])
    assert kinds(after) == "action"  # paid in full: the menu again
    assert fav(after, 0) == {"NOB": 4, "PRO": 5, "ART": 3}
    # At the payment's first unit each option says what the rest would be.
    at_pay = act(s, INFLUENCE)
    w = view(at_pay, 0)
    assert kinds(at_pay) == "pay"
    assert help_of(w, pay("NOB")) == {
        "units": 2,
        "payable": True,
        "payment": h["payment"][1:],
        "forced": [],
    }


def test_p87_a_unit_the_engine_pays_counts_and_is_named_but_is_not_suggested() -> None:
    """R79: a unit with one way to pay is the engine's; the action still costs it, and
    the help names the token the engine takes (``forced``)."""
    t = table(3, SEED)
    favor(t, 0, PRO=1)
    s = ready(t)
    scout = {"type": "scout", "by": "main", "acting": "placard", "target": [4, 4]}
    v = view(s, 0)
    assert help_of(v, scout) == {
        "units": 1,
        "payable": True,
        "payment": [],
        "forced": [pay("PRO")],
    }
    assert suggest_payment(s, 0, scout) == []
    after = act(s, scout)  # the engine paid the one PRO (and placed the card: R79)
    assert kinds(after) == "action"
    assert fav(after, 0) == {}


def test_p87_only_the_seat_to_act_gets_payment_help() -> None:
    """15.4: the help is about the viewer's own payment; other seats and spectators see
    none, not even how many actions the seat to act has."""
    t = table(3, SEED)
    put(t, (4, 4), "PIL016", [0, 1])
    favor(t, 0, NOB=6, PRO=6, ART=3)
    s = ready(t)
    assert any(h["payment"] for h in view(s, 0)["payment_help"])
    for seat in (1, 2, None):
        other = view(s, seat)
        assert other["legal_actions"] == []
        assert other["payment_help"] == []


class PayAsks:
    """Counts the ``pay`` decisions asked of one seat while on (forced ones too, R79), and
    keeps the answers the engine gave itself to the forced ones."""

    def __init__(self) -> None:
        self.on = False
        self.seat: int | None = None
        self.n = 0
        self.forced: list[JsonDict] = []

    def units(self, state: State, seat: int, action: JsonDict) -> int:
        """The payment units ``action`` opens: its own, then each first option's."""
        self.on, self.seat, self.n, self.forced = True, seat, 0, []
        try:
            s = E.apply(state, seat, action)
            while s.pending and s.pending[-1][0] == seat and s.pending[-1][1] == "pay":
                s = E.apply(s, seat, E.legal_actions(s, seat)[0])
        finally:
            self.on = False
        return self.n


@pytest.fixture
def pay_asks(monkeypatch: pytest.MonkeyPatch) -> PayAsks:
    counter = PayAsks()
    ask = flow.Ctx.ask

    def counting(
        ctx: flow.Ctx, seat: int, kind: str, *args: Any, **kw: Any
    ) -> Generator[flow.Ask, None, JsonDict]:
        fresh = ctx.cursor >= len(ctx.answers)  # asked now, not a recorded answer
        counted = counter.on and fresh and kind == "pay" and seat == counter.seat
        if counted:
            counter.n += 1
        answer = yield from ask(ctx, seat, kind, *args, **kw)
        if counted:  # a fresh ask that returns at once was forced (R79); others yield
            counter.forced.append(answer)
        return answer

    monkeypatch.setattr(flow.Ctx, "ask", counting)
    return counter


def test_p87_the_payment_help_is_suggest_payment_over_random_games(pay_asks: PayAsks) -> None:
    """Property (P-87): at every decision of seeded random games (2-4 seats, the standard
    game and each automa), for every offered action, ``payment`` is ``suggest_payment``'s,
    ``units`` is the number of ``pay`` decisions the action and that payment open,
    ``forced`` is what the engine answers itself to those with one option (R79), and
    taking the action and paying as suggested works (``payable``)."""
    variants = list(VARIANTS)
    checked = costly = forced = pays = 0
    for g in range(20):
        variant = variants[g % len(variants)]
        players = 2 + g % 2 if variant != "standard" else 2 + g % 3
        rng = random.Random(g)
        state = E.new_game(players, variant, f"payhelp-{g}", {"round_cap": 8})
        while not E.is_over(state):
            seat = E.to_act(state)
            if seat is None:
                state = E.advance(state)
                continue
            actions = E.legal_actions(state, seat)
            helps = view(state, seat)["payment_help"]
            assert len(helps) == len(actions)
            for other in ((seat + 1) % players, None):  # 15.4: nothing for the others
                assert view(state, other)["payment_help"] == []
            if state.pending[-1][1] == "pay" and (state.decision or {})["units_left"] > 1:
                assert open_bill(state, thaw(state)) is not None  # never the fallback
                pays += 1
            for a, h in zip(actions, helps, strict=True):
                assert h["payable"] is True
                assert h["payment"] == suggest_payment(state, seat, a), a
                assert h["units"] == pay_asks.units(state, seat, a), a
                assert h["forced"] == pay_asks.forced, a  # what the engine paid itself
                assert len(h["payment"]) + len(h["forced"]) == h["units"]
                checked += 1
                costly += h["units"] > 0
                forced += bool(h["forced"])
            # Seeded random play, half the time among the dearest actions: payments of
            # several units get under way.
            dear = [a for a, h in zip(actions, helps, strict=True) if h["units"] > 1]
            state = E.apply(
                state, seat, rng.choice(dear if dear and rng.random() < 0.5 else actions)
            )
    # The games reach what the rule is about: costly actions, units the engine pays,
    # and payments already under way.
    assert checked > 10000
    assert costly > 2000
    assert forced > 500
    assert pays > 20


def test_p87_the_help_is_pure_and_the_same_every_time() -> None:
    t = table(3, SEED)
    put(t, (4, 4), "PIL016", [0, 1])
    favor(t, 0, NOB=6, PRO=6, ART=3)
    s = ready(t)
    before = (s.favor, s.pool, s.answers)
    first = payment_help(s, 0)
    first[0]["payment"].append(pay("ART"))  # a caller's change does not stick
    assert payment_help(s, 0) == view(s, 0)["payment_help"] != first
    assert (s.favor, s.pool, s.answers) == before
