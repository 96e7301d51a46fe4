"""The new account pages in Japanese: the email address and its confirmation, the
notifications page and bell, the password reset and change pages, the profile's "your
turn" list. No English word may show (tests/web/test_i18n.py's rule)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from games import email_addresses, services
from games.models import NotificationKind
from games.notifications import NotificationSpec, notifications_send
from tests.helpers import game_with_seed
from tests.web.test_i18n import english_words

pytestmark = pytest.mark.django_db


def japanese(username: str, **extra: Any) -> Any:
    user = get_user_model().objects.create_user(username=username, password="pw", **extra)
    services.player_language_set(user=user, language="ja")
    return user


def test_the_japanese_account_pages_show_no_english_words() -> None:
    kenji = japanese("kenji", email="kenji@example.com")
    hanako, taro = japanese("hanako"), japanese("taro")
    game = game_with_seed(creator=kenji, player_count=3, rated=False, seed="ja-inbox")
    services.game_join(game_id=game.pk, user=hanako)
    services.game_join(game_id=game.pk, user=taro)
    game.refresh_from_db()
    email_addresses.address_give(user=kenji, address="new@example.com")
    specs = [
        NotificationSpec(user_id=kenji.pk, kind=kind, title="English title", game=game, data=data)
        for kind, data in (
            (NotificationKind.YOUR_TURN, {"seat": 0}),
            (NotificationKind.REMINDER, {"seat": 0}),
            (NotificationKind.PLAYER_JOINED, {"username": "taro"}),
            (NotificationKind.GAME_FINISHED, {"seat": 0, "result": {"winner_seat": 1}}),
            (NotificationKind.SEAT_HANDED_TO_BOT, {"seat": 0}),
            (NotificationKind.AUTOPILOT_MOVE, {"seat": 0}),
            (NotificationKind.CHALLENGE, {"from": "hanako"}),
            (NotificationKind.DISPUTE_UPDATE, {"event": "opened"}),
        )
    ]
    notifications_send(specs)
    to_act = game.seats.get(number=game.to_act_seat).player.user
    client = Client()
    client.force_login(kenji)
    token = email_addresses.confirmation_token(user_id=kenji.pk, address="new@example.com")
    pages = {
        "settings": "/settings/",
        "email": "/settings/email",
        "notifications": "/notifications/",
        "unread notifications": "/notifications/?unread=1",
        "bell": "/notifications/bell",
        "confirm": f"/accounts/email/confirm/{token}",
        "broken link": "/accounts/email/confirm/broken",
        "password change": "/accounts/password_change/",
        "password changed": "/accounts/password_change/done/",
    }
    found: dict[str, list[str]] = {}
    allowed = ("kenji@example.com", "new@example.com")

    def check(name: str, response: Any) -> None:
        html = response.content.decode()
        if words := english_words(html, also_allowed=allowed):
            found[name] = sorted(words)

    for name, path in pages.items():
        response = client.get(path)
        assert response.status_code in (200, 400), path
        check(name, response)
    me = Client()
    me.force_login(to_act)
    check("profile with my turn", me.get(f"/players/{to_act.username}/"))
    assert "あなたの手番" in me.get(f"/players/{to_act.username}/").content.decode()
    visitor = Client(HTTP_ACCEPT_LANGUAGE="ja")
    uid = urlsafe_base64_encode(force_bytes(kenji.pk))
    reset = default_token_generator.make_token(kenji)
    for name, path in {
        "log in": "/accounts/login/",
        "sign up": "/accounts/signup/",
        "reset": "/accounts/password_reset/",
        "reset sent": "/accounts/password_reset/done/",
        "reset bad link": f"/accounts/reset/{uid}/wrong-token/",
        "reset complete": "/accounts/reset/done/",
    }.items():
        check(name, visitor.get(path))
    check("reset form", visitor.get(f"/accounts/reset/{uid}/{reset}/", follow=True))
    assert found == {}
    html = client.get("/notifications/").content.decode()
    assert f"ゲーム{game.pk}であなたの手番です。" in html
    assert "hanako さんからゲーム" in html
