"""games.web.table: the controls and cards drawn from a view, for rarer situations."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import translation

from games.web import table


@pytest.fixture(autouse=True)
def in_english() -> Iterator[None]:
    with translation.override("en"):
        yield


def a_view(**changes: Any) -> dict[str, Any]:
    view: dict[str, Any] = {
        "status": "in_progress",
        "player_count": 3,
        "my_seat": 0,
        "seats": [
            {"seat": n, "username": name, "display_name": name, "is_bot": False}
            for n, name in enumerate(("ann", "ben", "cat"))
        ],
        "legal_actions": [],
        "my_hand": [],
        "current_trick": {"leader": 0, "led_family": None, "plays": []},
        "edicts_in_play": [],
        "trump": None,
        "phase": "playing",
    }
    view.update(changes)
    return view


def test_the_ruler_names_trump_with_one_button_per_family() -> None:
    actions = [{"type": "name_trump", "family": f} for f in ("borgia", "medici")]
    controls = table.controls_display(a_view(legal_actions=actions, phase="naming_trump"))
    assert [c["label"] for c in controls] == ["Name Borgia as trump", "Name Medici as trump"]
    assert controls[0]["action"] == '{"family":"borgia","type":"name_trump"}'


def test_a_tie_is_settled_by_naming_the_seat_that_counts_as_having_the_most() -> None:
    actions = [{"type": "resolve_tie", "family": "orsini", "seat": s} for s in (1, 2)]
    controls = table.controls_display(a_view(legal_actions=actions, phase="resolving_ties"))
    assert [c["label"] for c in controls] == [
        "ben counts as having the most Orsini",
        "cat counts as having the most Orsini",
    ]


def test_the_papal_bull_and_sin_controls_say_what_they_do() -> None:
    actions = [{"type": "papal_bull"}, {"type": "pass"}, {"type": "sin"}]
    labels = [c["label"] for c in table.controls_display(a_view(legal_actions=actions))]
    assert labels == [
        "Play your papal bull: every edict in the row is in force",
        "Pass",
        "Sin: take the edict's Sin side and the Indulgence ring",
    ]


def test_a_face_down_card_of_another_seat_is_drawn_without_its_face() -> None:
    plays = [{"seat": 1, "card": None, "indulgence": False}]
    [play] = table.plays_display(a_view(), plays)
    assert play["card"] == {"id": None, "face_down": True, "label": "a face-down card"}


def test_the_first_lead_restriction_is_the_reason_for_disabled_cards() -> None:
    view = a_view(
        my_hand=["B1", "M2", "O3"],
        legal_actions=[{"type": "play", "card": c, "indulgence": False} for c in ("M2", "O3")],
        edicts_in_play=[{"id": "any-borgia", "families": ["borgia"]}],
    )
    cards, reason, ring = table.hand_display(view)
    assert [c["legal"] for c in cards] == [False, True, True]
    assert reason == "In the first trick you may not lead Borgia while you hold another family."
    assert ring is False


def test_the_ring_is_offered_when_a_play_with_the_indulgence_is_legal() -> None:
    view = a_view(
        my_hand=["S9"],
        legal_actions=[
            {"type": "play", "card": "S9", "indulgence": False},
            {"type": "play", "card": "S9", "indulgence": True},
        ],
    )
    _cards, reason, ring = table.hand_display(view)
    assert ring is True
    assert reason == ""


def test_a_papal_bull_sin_wins_the_game_and_costs_18_florins_if_it_fails() -> None:
    from engine.indulgence.edicts import CATALOG

    row = [e.as_dict() for e in CATALOG[:3]]
    view = a_view(
        phase="sin_decision",
        papal_bull=True,
        edicts_in_play=row,
        ruler_seat=2,
        to_act=1,
        sin_decisions=[{"seat": 0, "decision": "pass"}],
    )
    sin = table.sin_display(view)
    assert sin is not None
    assert sin["condition"] == "The sinner must meet the Sin side of every edict in force."
    assert sin["reward"] == "If the sin succeeds, the sinner wins the whole game at once."
    assert sin["failing"] == "If it fails, the sinner pays the Ruler 18 florins."
    assert [s["title"] for s in sin["sides"]] == [e["title"] for e in row]
    # From the Ruler's left: seat 0 (me) passed, seat 1 decides now.
    assert [(o["name"], o["state"]) for o in sin["order"]] == [
        ("you", "passed"),
        ("ben", "deciding now"),
    ]


def test_no_sin_terms_outside_the_sin_decision() -> None:
    assert table.sin_display(a_view(phase="playing")) is None


def test_only_a_seated_player_of_a_running_game_pauses_on_a_hand_not_yet_seen() -> None:
    settled = {"hand": 3, "ruler": 0, "edicts_in_force": [], "sinner": None, "payments": []}
    view = a_view(last_settlement={**settled, "florins_after": {}}, hand_number=4)
    assert table.pause_due(view, hands_seen=2)
    assert not table.pause_due(view, hands_seen=3)  # moved on already
    assert not table.pause_due(view, hands_seen=None)  # replays never pause
    assert not table.pause_due({**view, "my_seat": None}, hands_seen=0)  # spectators
    assert not table.pause_due({**view, "status": "finished"}, hands_seen=0)  # game over
    assert not table.pause_due({**view, "last_settlement": None}, hands_seen=0)
