"""The table's cost beside each offered action (15.5.1, P-87): the suggested payment of the
units the player chooses, and the tokens of the units with one way to pay, which the
engine pays itself (R79: the help's ``forced``); in English and in Japanese."""

from __future__ import annotations

from django.utils import translation

from engine.pax.view import view
from games.web import pax_table
from tests.engine.pax.support import favor, help_of, pay, put, ready, table

SEED = "seat-2"  # seat 0's contact is C15: PRO, MAG, SCH (tests/engine/pax/test_payhelp.py)
SCOUT = {"type": "scout", "by": "main", "acting": "placard", "target": [4, 4]}
INFLUENCE = {"type": "influence", "by": "main", "target": [4, 4], "n": 1}


def test_a_unit_the_engine_pays_is_shown_with_its_token_as_paid_for_you() -> None:
    t = table(3, SEED)
    favor(t, 0, PRO=1)  # the Scout's one unit can only be paid with this PRO
    v = view(ready(t), 0)
    scout = help_of(v, SCOUT)
    assert scout == {"units": 1, "payable": True, "payment": [], "forced": [pay("PRO")]}
    with translation.override("en"):
        protestants = pax_table.payment_text([pay("PRO")])
        assert protestants  # the faction's name
        assert pax_table.cost_text(scout) == f"paid for you: {protestants}"
        end = help_of(v, {"type": "end"})
        assert pax_table.cost_text(end) == ""  # free: no cost shown
    with translation.override("ja"):
        text = pax_table.cost_text(scout)
        assert text == f"自動で支払い：{pax_table.payment_text([pay('PRO')])}"


def test_a_choice_of_tokens_is_shown_as_the_suggested_payment() -> None:
    t = table(3, SEED)
    put(t, (4, 4), "PIL016", [0, 1])
    favor(t, 0, NOB=6, PRO=6, ART=3)
    v = view(ready(t), 0)
    influence = help_of(v, INFLUENCE)
    assert influence["units"] == len(influence["payment"]) == 3  # every unit a choice
    with translation.override("en"):
        text = pax_table.cost_text(influence)
    assert text == pax_table.payment_text(influence["payment"])
    assert "paid for you" not in text
    assert influence["forced"] == []
    # two more units of one way: both parts, in order
    both = {**influence, "units": 5, "forced": [pay("SCH"), pay("SCH", exchange=True)]}
    with translation.override("en"):
        forced = pax_table.payment_text(both["forced"])
        assert "exchange" in forced
        assert pax_table.cost_text(both) == f"{text}, paid for you: {forced}"
