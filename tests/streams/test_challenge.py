"""Challenges: ``invite`` on POST /api/v1/games/ tells each invitee (a ``challenge`` event on
their account stream and a notification), is validated with 400 ``invalid_request``, and an
invitee accepts by joining; the seats stay open to anyone."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games import services
from games.models import Event, Game, GameStatus, Invitation, Notification, NotificationKind
from tests.streams.test_sse import parse, read


def api(user: Any) -> APIClient:
    _, raw = services.token_issue(user=user, scopes=["read", "play"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    return client


def create(user: Any, **body: Any) -> Any:
    return api(user).post("/api/v1/games/", {"player_count": 3, **body}, format="json")


def account_stream(user: Any, after: int) -> list[dict[str, Any]]:
    _, raw = services.token_issue(user=user, scopes=["read"])
    body = read(
        Client(), "/api/v1/stream", Authorization=f"Bearer {raw}", **{"Last-Event-ID": str(after)}
    )
    return [data for _, data in parse(body)[0]]


@pytest.mark.django_db
def test_the_invitee_account_stream_carries_the_challenge_and_the_inviter_does_not(
    users: list[Any], short_streams: None
) -> None:
    owner, opponent, third = users
    start = Event.objects.order_by("-id").values_list("id", flat=True).first() or 0
    response = create(owner, variant="expert", rated=False, invite=["opponent"])
    assert response.status_code == 201, response.content
    game_id = response.json()["id"]

    received = account_stream(opponent, start)
    assert [data["type"] for data in received] == ["challenge"]
    challenge = received[0]
    assert challenge["game"] == game_id
    assert challenge["url"].endswith(f"/games/{game_id}/")
    assert challenge["data"] == {
        "from": "owner",
        "game_type": "indulgence",
        "variant": "expert",
        "player_count": 3,
        "rated": False,
    }
    assert "owner" in challenge["title"]
    assert not any(data["type"] == "challenge" for data in account_stream(owner, start))
    assert account_stream(third, start) == []

    notification = Notification.objects.get(user=opponent, kind=NotificationKind.CHALLENGE)
    assert notification.game_id == game_id
    assert notification.pk == challenge["notification"]
    assert (
        not Notification.objects.filter(kind=NotificationKind.CHALLENGE)
        .exclude(user=opponent)
        .exists()
    )
    assert list(
        Invitation.objects.filter(game_id=game_id).values_list("user__username", flat=True)
    ) == ["opponent"]


@pytest.mark.django_db
def test_the_challenge_email_follows_the_invitee_preference(users: list[Any]) -> None:
    owner, _, third = users
    services.player_ensure(user=third)
    third.player.notification_preferences = {"email_challenge": False}
    third.player.save()
    response = create(owner, player_count=4, invite=["opponent", "third"])
    assert response.status_code == 201, response.content
    by_user = {
        n.user.username: n.email_status
        for n in Notification.objects.filter(kind=NotificationKind.CHALLENGE)
    }
    assert by_user == {"opponent": "pending", "third": "none"}


@pytest.mark.django_db
def test_the_challenge_reads_in_the_invitee_language(users: list[Any]) -> None:
    owner, opponent, _ = users
    services.player_ensure(user=opponent)
    opponent.player.language = "ja"
    opponent.player.save()
    assert create(owner, invite=["opponent"]).status_code == 201
    notification = Notification.objects.get(user=opponent, kind=NotificationKind.CHALLENGE)
    assert "owner" in notification.title
    assert not notification.title.isascii()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"invite": ["nobody"]}, "nobody"),
        ({"invite": ["owner"]}, "yourself"),
        ({"invite": ["opponent", "opponent"]}, "once"),
        ({"invite": ["opponent", "third"], "bots": [{"seat": 2, "bot": "random"}]}, "1 seat"),
        ({"invite": ["opponent", "third", "gone"], "player_count": 3}, "only 2"),
        ({"invite": ["gone"]}, "gone"),
        ({"invite": [""]}, "blank"),
    ],
)
def test_bad_invitations_are_refused_with_invalid_request(
    users: list[Any], make_user: Any, body: dict[str, Any], words: str
) -> None:
    make_user("gone", is_active=False)
    before = Game.objects.count()
    response = create(users[0], **body)
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid_request"
    assert words in response.json()["detail"]
    assert Game.objects.count() == before
    assert not Notification.objects.filter(kind=NotificationKind.CHALLENGE).exists()


@pytest.mark.django_db
def test_the_invitee_accepts_by_joining_and_an_outsider_may_take_the_other_seat(
    users: list[Any], make_user: Any
) -> None:
    owner, opponent, _ = users
    outsider = make_user("outsider")
    game_id = create(owner, invite=["opponent"]).json()["id"]
    joined = api(opponent).post(f"/api/v1/games/{game_id}/join/")
    assert joined.status_code == 200, joined.content
    assert Game.objects.get(pk=game_id).status == GameStatus.OPEN
    last = api(outsider).post(f"/api/v1/games/{game_id}/join/")
    assert last.status_code == 200, last.content
    game = Game.objects.get(pk=game_id)
    assert game.status == GameStatus.IN_PROGRESS
    seated = set(game.seats.values_list("player__user__username", flat=True))
    assert seated == {"owner", "opponent", "outsider"}


@pytest.mark.django_db
def test_the_lobby_form_invites_comma_separated_usernames(users: list[Any]) -> None:
    owner = users[0]
    client = Client()
    client.force_login(owner)
    form = {"player_count": "4", "variant": "basic", "rated": "on"}
    refused = client.post("/games/new", {**form, "invite": "opponent, nobody"})
    assert refused.status_code == 400
    assert "nobody" in refused.content.decode()
    response = client.post("/games/new", {**form, "invite": " opponent, third ,"})
    assert response.status_code == 302, response.content
    game = Game.objects.get(created_by=owner)
    invited = Invitation.objects.filter(game=game).values_list("user__username", flat=True)
    assert sorted(invited) == ["opponent", "third"]
    assert Notification.objects.filter(kind=NotificationKind.CHALLENGE).count() == 2
    assert 'name="invite"' in client.get("/lobby/").content.decode()
