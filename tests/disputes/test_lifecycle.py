"""games.disputes: open -> under review -> upheld | dismissed, with players told each time."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core import mail

from games import disputes, services
from games.errors import Forbidden, InvalidRequest
from games.models import (
    AuditAction,
    AuditEntry,
    Dispute,
    DisputeStatus,
    Game,
    Notification,
    NotificationKind,
)
from tests.disputes.conftest import Users

pytestmark = pytest.mark.django_db

OpenDispute = Callable[..., Dispute]


def told(event: str) -> list[str]:
    """Who got the in-app ``dispute_update`` notification for ``event``."""
    return sorted(
        n.user.get_username()
        for n in Notification.objects.filter(kind=NotificationKind.DISPUTE_UPDATE)
        if n.data["event"] == event
    )


def emailed() -> list[str]:
    return sorted(address for message in mail.outbox for address in message.to)


EVERYONE = ["opponent", "owner", "third"]


def test_opening_a_dispute_tells_every_player_at_the_table(
    running_game: Game, players: Users, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        dispute = services.dispute_create(
            game_id=running_game.pk, user=players[1], reason="Seat 2 never had to follow."
        )
    assert dispute.status == DisputeStatus.OPEN
    assert told("opened") == EVERYONE
    assert emailed() == ["opponent@example.org", "owner@example.org", "third@example.org"]
    assert "a dispute was opened" in mail.outbox[0].subject
    assert "Seat 2 never had to follow." in mail.outbox[0].body


def test_staff_take_it_up_then_uphold_it_with_a_written_resolution(
    running_game: Game,
    staff: Any,
    dispute_on: OpenDispute,
    django_capture_on_commit_callbacks: Any,
) -> None:
    dispute = dispute_on(running_game)
    with django_capture_on_commit_callbacks(execute=True):
        disputes.dispute_review_start(dispute_id=dispute.pk, staff=staff)
    dispute.refresh_from_db()
    assert (dispute.status, dispute.reviewer) == (DisputeStatus.UNDER_REVIEW, staff)
    assert told("under_review") == EVERYONE
    assert "under review" in mail.outbox[-1].subject

    with django_capture_on_commit_callbacks(execute=True):
        disputes.dispute_uphold(
            dispute_id=dispute.pk, staff=staff, resolution="  The bot misread the edict.  "
        )
    dispute.refresh_from_db()
    assert dispute.status == DisputeStatus.UPHELD
    assert dispute.resolution == "The bot misread the edict."
    assert dispute.resolved_at is not None
    assert told(DisputeStatus.UPHELD) == EVERYONE
    assert "The bot misread the edict." in mail.outbox[-1].body
    actions = list(AuditEntry.objects.filter(dispute=dispute).values_list("action", "actor"))
    assert actions == [
        (AuditAction.DISPUTE_REVIEW, staff.pk),
        (AuditAction.DISPUTE_UPHOLD, staff.pk),
    ]


def test_a_dismissal_is_recorded_with_its_resolution(
    running_game: Game, staff: Any, dispute_on: OpenDispute
) -> None:
    dispute = dispute_on(running_game)
    disputes.dispute_review_start(dispute_id=dispute.pk, staff=staff, note="Looking at hand 1.")
    disputes.dispute_dismiss(dispute_id=dispute.pk, staff=staff, resolution="Played by the rules.")
    dispute.refresh_from_db()
    assert dispute.status == DisputeStatus.DISMISSED
    assert told(DisputeStatus.DISMISSED) == EVERYONE
    entries = AuditEntry.objects.filter(dispute=dispute).order_by("id")
    assert [e.reason for e in entries] == ["Looking at hand 1.", "Played by the rules."]


def test_a_dispute_must_be_under_review_before_it_is_resolved(
    running_game: Game, staff: Any, dispute_on: OpenDispute
) -> None:
    dispute = dispute_on(running_game)
    with pytest.raises(disputes.DisputeStateError, match="take it up for review first"):
        disputes.dispute_dismiss(dispute_id=dispute.pk, staff=staff, resolution="No.")
    assert Dispute.objects.get(pk=dispute.pk).status == DisputeStatus.OPEN
    assert not AuditEntry.objects.exists()


def test_a_resolved_dispute_stays_resolved(
    running_game: Game, staff: Any, dispute_on: OpenDispute
) -> None:
    dispute = dispute_on(running_game)
    disputes.dispute_review_start(dispute_id=dispute.pk, staff=staff)
    disputes.dispute_dismiss(dispute_id=dispute.pk, staff=staff, resolution="No.")
    with pytest.raises(disputes.DisputeStateError):
        disputes.dispute_uphold(dispute_id=dispute.pk, staff=staff, resolution="Yes after all.")
    with pytest.raises(disputes.DisputeStateError, match="not open"):
        disputes.dispute_review_start(dispute_id=dispute.pk, staff=staff)


def test_a_resolution_may_not_be_empty(
    running_game: Game, staff: Any, dispute_on: OpenDispute
) -> None:
    dispute = dispute_on(running_game)
    disputes.dispute_review_start(dispute_id=dispute.pk, staff=staff)
    with pytest.raises(InvalidRequest, match="Write the resolution"):
        disputes.dispute_uphold(dispute_id=dispute.pk, staff=staff, resolution="   ")


def test_only_staff_can_move_a_dispute_along(
    running_game: Game, players: Users, dispute_on: OpenDispute
) -> None:
    dispute = dispute_on(running_game)
    with pytest.raises(Forbidden, match="Only staff"):
        disputes.dispute_review_start(dispute_id=dispute.pk, staff=players[0])
    assert Dispute.objects.get(pk=dispute.pk).status == DisputeStatus.OPEN
