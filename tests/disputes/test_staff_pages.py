"""/staff/disputes/: the queue, the case file and the remedy forms, for staff only."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

import engine.indulgence as rules
from games import disputes, selectors
from games.models import (
    AuditEntry,
    Dispute,
    DisputeStatus,
    FlorinAdjustment,
    Game,
    GameStatus,
    Move,
)
from games.staff import selectors as staff_selectors
from tests.disputes.conftest import Users, log_append, playthrough

pytestmark = pytest.mark.django_db

OpenDispute = Callable[..., Dispute]
ADVANCE = {"seat": None, "action": {"type": "advance"}}
# A complete form for every action: only the permission check can refuse it.
FORM = {"reason": "x", "to_move": 0, "seat": 0, "amount": 5}


@pytest.fixture
def dispute(running_game: Game, dispute_on: OpenDispute) -> Dispute:
    return dispute_on(running_game)


@pytest.fixture
def staff_client(client: Client, staff: Any) -> Client:
    client.force_login(staff)
    return client


def pages(dispute: Dispute) -> list[tuple[str, str]]:
    case = f"/staff/disputes/{dispute.pk}/"
    return [
        ("get", "/staff/disputes/"),
        ("get", case),
        *[
            ("post", f"{case}{action}")
            for action in ("review", "dismiss", "uphold", "void", "rewind", "adjust")
        ],
    ]


def test_anonymous_visitors_are_sent_to_log_in(client: Client, dispute: Dispute) -> None:
    for method, url in pages(dispute):
        response = getattr(client, method)(url, FORM)
        assert response.status_code == 302, url
        assert response["Location"].startswith("/accounts/login/?next=")
    assert Dispute.objects.get(pk=dispute.pk).status == DisputeStatus.OPEN


def test_players_and_outsiders_are_refused(
    client: Client, dispute: Dispute, players: Users, outsider: Any
) -> None:
    for user in (players[1], outsider):
        client.force_login(user)
        for method, url in pages(dispute):
            assert getattr(client, method)(url, FORM).status_code == 403, url
    assert Dispute.objects.get(pk=dispute.pk).status == DisputeStatus.OPEN
    assert Game.objects.get(pk=dispute.game_id).status == GameStatus.IN_PROGRESS
    assert not AuditEntry.objects.exists()


def test_the_queue_lists_disputes_and_filters_them(
    staff_client: Client, running_game: Game, finished_game: Game, dispute_on: OpenDispute
) -> None:
    recent = dispute_on(running_game, "The bot saw my cards.")
    old = dispute_on(finished_game, "Hand 3 was settled twice.")
    Dispute.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=9))

    page = staff_client.get("/staff/disputes/").content.decode()
    assert "The bot saw my cards." in page
    assert "Hand 3 was settled twice." in page

    page = staff_client.get("/staff/disputes/", {"age": "older"}).content.decode()
    assert "The bot saw my cards." not in page
    assert "Hand 3 was settled twice." in page

    page = staff_client.get("/staff/disputes/", {"game": running_game.pk}).content.decode()
    assert "The bot saw my cards." in page
    assert "Hand 3 was settled twice." not in page

    page = staff_client.get("/staff/disputes/", {"status": "dismissed"}).content.decode()
    assert "No disputes match these filters." in page
    assert [d.pk for d in staff_selectors.dispute_queue(status="open")] == [old.pk, recent.pk]


def test_the_case_file_shows_the_whole_story(
    staff_client: Client, running_game: Game, players: Users, dispute_on: OpenDispute
) -> None:
    steps = playthrough(running_game)
    log_append(running_game, players, steps[: steps.index(ADVANCE) + 4])
    dispute = dispute_on(running_game, "Seat 2 had no medici but did not follow.")

    response = staff_client.get(f"/staff/disputes/{dispute.pk}/")

    assert response.status_code == 200
    page = response.content.decode()
    assert "Seat 2 had no medici but did not follow." in page
    for heading in (
        "Summary",
        "Deal verification:",
        "Replay: after move",
        "God view: every hand",
        "Deadlines and timeouts",
        "Timeline",
        "Settlements",
        "Audit log",
    ):
        assert heading in page, heading
    assert '<span class="ok">verified</span>' in page
    assert running_game.seed in page  # staff see the seed
    assert "Hand 1 · settled" in page


def test_the_replay_steps_through_moves_with_every_hand_and_each_seats_view(
    staff_client: Client, running_game: Game, players: Users, dispute_on: OpenDispute
) -> None:
    log_append(running_game, players, playthrough(running_game)[:12])
    dispute = dispute_on(running_game)

    response = staff_client.get(
        f"/staff/disputes/{dispute.pk}/",
        {"partial": "replay", "step": 5, "seat": 1},
        HTTP_HX_REQUEST="true",
    )

    page = response.content.decode()
    assert page.lstrip().startswith('<section id="replay">')
    assert "Replay: after move 5 of 12" in page
    assert "What seat 1 could see at this moment" in page
    replay = staff_selectors.replay_step(game=running_game, step=5, seat=1)
    moves = [{"seat": m.seat, "action": m.action} for m in Move.objects.filter(game=running_game)]
    state = selectors.record_replay(
        player_count=3, variant=running_game.variant, seed=running_game.seed, moves=moves[:5]
    )
    assert replay["seat_view"] == rules.view(state, 1)
    held = [rules.view(state, n)["my_hand"] for n in range(3)]
    assert [s["held"] for s in replay["seats"]] == held


def test_staff_work_a_dispute_through_the_forms(
    staff_client: Client, finished_game: Game, dispute_on: OpenDispute
) -> None:
    dispute = dispute_on(finished_game)
    case = f"/staff/disputes/{dispute.pk}/"

    response = staff_client.post(f"{case}review", {"reason": ""})
    assert response.status_code == 303
    assert response["Location"] == case
    response = staff_client.post(f"{case}adjust", {"seat": 2, "amount": -4, "reason": "Refund."})
    assert FlorinAdjustment.objects.get(game=finished_game).amount == -4
    response = staff_client.post(f"{case}uphold", {"reason": "Seat 2 was overpaid by 4."})

    dispute.refresh_from_db()
    assert dispute.status == DisputeStatus.UPHELD
    page = staff_client.get(case).content.decode()
    assert "Seat 2 was overpaid by 4." in page
    assert "Florins adjusted" in page
    assert [e.action for e in AuditEntry.objects.order_by("id")] == [
        "dispute_review",
        "florins_adjust",
        "dispute_uphold",
    ]


def test_staff_rewind_through_the_form_and_can_still_replay_what_was_replaced(
    staff_client: Client, staff: Any, finished_game: Game, dispute_on: OpenDispute
) -> None:
    dispute = dispute_on(finished_game)
    disputes.dispute_review_start(dispute_id=dispute.pk, staff=staff)
    case = f"/staff/disputes/{dispute.pk}/"
    to_move = finished_game.move_count - 4

    staff_client.post(
        f"{case}rewind",
        {"to_move": to_move, "reason": "Lag.", "expected_version": finished_game.version},
    )

    finished_game.refresh_from_db()
    assert (finished_game.status, finished_game.move_count) == (GameStatus.IN_PROGRESS, to_move)
    rewind = AuditEntry.objects.get(action="game_rewind")
    page = staff_client.get(case).content.decode()
    assert f"archived by rewind #{rewind.pk}" in page
    branch = staff_client.get(
        case, {"partial": "replay", "branch": rewind.pk}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert f"Replay of the moves rewind #{rewind.pk} replaced: after move {to_move + 4}" in branch


def test_a_refused_remedy_changes_nothing_and_says_why(
    staff_client: Client, staff: Any, running_game: Game, dispute_on: OpenDispute
) -> None:
    dispute = dispute_on(running_game)
    disputes.dispute_review_start(dispute_id=dispute.pk, staff=staff)
    case = f"/staff/disputes/{dispute.pk}/"

    response = staff_client.post(f"{case}void", {"reason": "", "expected_version": ""}, follow=True)

    assert "Nothing was changed: Write the reason" in response.content.decode()
    assert Game.objects.get(pk=running_game.pk).status == GameStatus.IN_PROGRESS
    response = staff_client.post(
        f"{case}void", {"reason": "Stale.", "expected_version": 1}, follow=True
    )
    assert "Nothing was changed: The game is at version" in response.content.decode()
    assert Game.objects.get(pk=running_game.pk).status == GameStatus.IN_PROGRESS
