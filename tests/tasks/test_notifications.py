"""Notifications: the in-app list, email with preferences, quiet hours and unsubscribe."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from games import notifications, services
from games.errors import InvalidRequest
from games.models import EmailStatus, Notification, NotificationKind, Player
from tests.helpers import game_with_seed

pytestmark = pytest.mark.django_db(transaction=True)  # emails go out after commit


def notify(user: Any, kind: str = NotificationKind.YOUR_TURN) -> Notification:
    [notification] = notifications.notifications_send(
        [notifications.NotificationSpec(user_id=user.pk, kind=kind, title="Your turn", body="Go")]
    )
    notification.refresh_from_db()
    return notification


def set_preferences(user: Any, **changes: Any) -> None:
    services.player_ensure(user=user)
    notifications.preferences_update(user=user, changes=changes)


def test_it_emails_your_turn_with_a_one_click_unsubscribe_link(users: list[Any]) -> None:
    owner = users[0]
    notification = notify(owner)
    assert notification.email_status == EmailStatus.SENT
    [message] = mail.outbox
    assert message.to == ["owner@example.org"]
    assert message.subject == "Your turn"
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    link = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert link in message.body


def test_it_sends_no_email_when_the_kind_is_turned_off(users: list[Any]) -> None:
    owner = users[0]
    set_preferences(owner, email_your_turn=False)
    notification = notify(owner)
    assert notification.email_status == EmailStatus.NONE
    assert mail.outbox == []
    assert Notification.objects.filter(user=owner).count() == 1  # still in the list


def test_quiet_hours_may_span_midnight_in_the_players_time_zone() -> None:
    quiet = {"start": "22:00", "end": "07:30", "timezone": "Asia/Tokyo"}
    inside = datetime(2026, 11, 22, 14, 0, tzinfo=UTC)  # 23:00 in Tokyo
    assert notifications.quiet_hours_end(quiet, inside) == datetime(
        2026, 11, 22, 22, 30, tzinfo=UTC
    )
    outside = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)  # 12:00 in Tokyo
    assert notifications.quiet_hours_end(quiet, outside) is None


def test_it_refuses_malformed_preferences(users: list[Any]) -> None:
    owner = users[0]
    services.player_ensure(user=owner)
    with pytest.raises(InvalidRequest, match="Unknown preference"):
        notifications.preferences_update(user=owner, changes={"email_spam": True})
    with pytest.raises(InvalidRequest, match="Unknown time zone"):
        notifications.preferences_update(
            user=owner,
            changes={"quiet_hours": {"start": "22:00", "end": "07:00", "timezone": "Mars"}},
        )


def test_the_unsubscribe_link_asks_first_then_unsubscribes(users: list[Any]) -> None:
    owner = users[0]
    services.player_ensure(user=owner)
    url = notifications.unsubscribe_url(user_id=owner.pk, kind=NotificationKind.YOUR_TURN)
    path = url.removeprefix("http://127.0.0.1:8000")
    client = Client(enforce_csrf_checks=True)
    page = client.get(path)
    assert page.status_code == 200
    assert b"Unsubscribe" in page.content
    assert Player.objects.get(user=owner).notification_preferences.get("email_your_turn", True)
    done = client.post(path, {"List-Unsubscribe": "One-Click"})  # no cookie, no CSRF token
    assert done.status_code == 200
    prefs = Player.objects.get(user=owner).notification_preferences
    assert prefs["email_your_turn"] is False
    assert prefs.get("email_game_finished", True) is True
    assert notify(owner).email_status == EmailStatus.NONE
    assert client.get(path[:-3] + "xyz/").status_code == 404


def test_the_api_lists_notifications_and_marks_them_read(users: list[Any]) -> None:
    owner, opponent = users[0], users[1]
    first, second = notify(owner), notify(owner, NotificationKind.GAME_FINISHED)
    notify(opponent)
    client = Client()
    client.force_login(owner)
    listed = client.get("/api/v1/notifications").json()
    assert [n["id"] for n in listed["results"]] == [second.pk, first.pk]
    assert listed["results"][0]["read"] is False
    assert client.post(f"/api/v1/notifications/{first.pk}/read").json() == {
        "marked_read": 1,
        "unread": 1,
    }
    unread = client.get("/api/v1/notifications?unread=true").json()
    assert [n["id"] for n in unread["results"]] == [second.pk]
    assert client.post("/api/v1/notifications/read").json()["unread"] == 0
    other = Notification.objects.get(user=opponent)
    assert client.post(f"/api/v1/notifications/{other.pk}/read").status_code == 404
    assert Client().get("/api/v1/notifications").status_code in (401, 403)


def test_the_api_reads_and_changes_preferences(users: list[Any]) -> None:
    owner = users[0]
    services.player_ensure(user=owner)
    client = Client()
    client.force_login(owner)
    prefs = client.get("/api/v1/notifications/preferences").json()
    assert prefs["email_your_turn"] is True
    assert prefs["quiet_hours"] is None
    changed = client.patch(
        "/api/v1/notifications/preferences",
        {"email_reminder": False, "quiet_hours": {"start": "23:00", "end": "7:00"}},
        content_type="application/json",
    ).json()
    assert changed["email_reminder"] is False
    assert changed["quiet_hours"] == {"start": "23:00", "end": "07:00", "timezone": "UTC"}
    refused = client.patch(
        "/api/v1/notifications/preferences",
        {"email_reminder": "no"},
        content_type="application/json",
    )
    assert refused.status_code == 400
    assert refused.json()["code"] == "invalid_request"


def test_a_dispute_update_reaches_the_list_email_and_stream(users: list[Any]) -> None:
    owner, opponent, third = users
    game = game_with_seed(creator=owner, player_count=3, rated=False, seed="dispute")
    services.game_join(game_id=game.pk, user=opponent)
    services.game_join(game_id=game.pk, user=third)
    dispute = services.dispute_create(game_id=game.pk, user=owner, reason="A card vanished")
    mail.outbox.clear()
    earlier = set(Notification.objects.values_list("pk", flat=True))
    streamed = owner.stream_events.filter(type="dispute_update").count()
    notifications.dispute_update_notify(
        dispute_id=dispute.pk,
        user_ids=[owner.pk, opponent.pk],
        title="Dispute under review",
        body="Staff are looking at it.",
    )
    told = Notification.objects.filter(kind=NotificationKind.DISPUTE_UPDATE).exclude(pk__in=earlier)
    assert sorted(n.user_id for n in told) == sorted([owner.pk, opponent.pk])
    assert sorted(m.to[0] for m in mail.outbox) == ["opponent@example.org", "owner@example.org"]
    assert owner.stream_events.filter(type="dispute_update").count() == streamed + 1
