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
