"""The authorization matrix over every web and staff page (the API's is in
test_authorization_every_endpoint.py and tests/api/test_authorization.py).

The URL resolver is walked (everything outside /api/v1/ and the admin): every named route
must have a row below, so a new page cannot be forgotten. Each page is read (GET) by four
people: anonymous, an outsider, a seated player, staff; then every address that changes
something is posted to by those who may not, and nothing must change.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Dispute, Game
from tests.proof.test_csrf import Cast, web_routes

pytestmark = pytest.mark.django_db

ROLES = (None, "outsider", "owner", "staff")
LOGIN = "302 login"  # sent to log in (or sign up) first
# URL name -> GET status for (anonymous, outsider, seated player, staff). The game is a
# running rated game, the dispute is open. "302 login": sent to log in first.
GET: dict[str, tuple[str, str, str, str]] = {
    "home": ("200", "200", "200", "200"),
    "lobby": ("200", "200", "200", "200"),
    "leaderboard": ("200", "200", "200", "200"),
    "rules": ("200", "200", "200", "200"),
    "rules_game": ("200", "200", "200", "200"),  # every game's rules page (issue 24)
    # Spectating is open: the table and its history show what a spectator may know.
    "table": ("200", "200", "200", "200"),
    "history": ("200", "200", "200", "200"),
    # Every hand revealed: not while the game runs, except for staff reviewing it.
    "replay": ("409", "409", "409", "200"),
    "settings": (LOGIN, "200", "200", "200"),
    "staff:queue": (LOGIN, "403", "403", "200"),
    "staff:case": (LOGIN, "403", "403", "200"),
    "login": ("200", "200", "200", "200"),
    "signup": ("200", "302", "302", "302"),
    "password_change": (LOGIN, "200", "200", "200"),
    "password_change_done": (LOGIN, "200", "200", "200"),
    "password_reset": ("200", "200", "200", "200"),
    "password_reset_done": ("200", "200", "200", "200"),
    "password_reset_confirm": ("200", "200", "200", "200"),  # "this link is not valid"
    "password_reset_complete": ("200", "200", "200", "200"),
    "notifications-unsubscribe": ("404", "404", "404", "404"),  # a forged token
    "set_language": ("302", "302", "302", "302"),
    # Writes only: reading them is 405 for everyone.
    "act": ("405", "405", "405", "405"),
    "dispute": ("405", "405", "405", "405"),
    "hand_seen": ("405", "405", "405", "405"),
    "rematch": ("405", "405", "405", "405"),
    "abort": ("405", "405", "405", "405"),
    "undo": ("405", "405", "405", "405"),
    "join": ("405", "405", "405", "405"),
    "game_create": ("405", "405", "405", "405"),
    # Signed out: to sign-up (then the game starts); signed in: a page with the POST button.
    "play_now": (LOGIN, "200", "200", "200"),
    # Public profiles: display name, ratings, recent games (nothing private).
    "profile": ("200", "200", "200", "200"),
    "language": ("405", "405", "405", "405"),
    "logout": ("405", "405", "405", "405"),
    "staff:act": ("405", "405", "405", "405"),
    # The account's email address, the notifications page and the bell (issue 21).
    "settings-email": (LOGIN, "200", "200", "200"),
    "email-confirm": ("400", "400", "400", "400"),  # a forged token confirms nothing
    "inbox": (LOGIN, "200", "200", "200"),
    "inbox-bell": ("204", "200", "200", "200"),  # signed out: nothing to swap in
    "inbox-read": ("405", "405", "405", "405"),
    "inbox-read-all": ("405", "405", "405", "405"),
    # New Eleusis' own pages (games/web/eleusis_views.py): the game here is Indulgence, so
    # its id is not found by them; test_authorization_eleusis.py has their matrix.
    "eleusis_rule_check": ("405", "405", "405", "405"),
    "eleusis_verify": ("404", "404", "404", "404"),
}


def _url(name: str, route: str, cast: Cast) -> str:
    values = {
        "game_id": cast.game.pk,
        "dispute_id": cast.dispute.pk,
        "action": "review",
        "token": "forged",
        "uidb64": "MQ",
        "username": cast.owner.username,
        "game_type": "eleusis",
        "notification_id": cast.owner.notifications.order_by("pk").first().pk,
        "number": 1,
    }
    params = re.findall(r"<(?:\w+:)?(\w+)>", route)
    return reverse(name, kwargs={p: values[p] for p in params})


def _client(cast: Cast, role: str | None) -> Client:
    client = Client()
    if role is not None:
        client.force_login(getattr(cast, role))
    return client


def _status(response: Any) -> str:
    if response.status_code == 302 and response["Location"].startswith(
        ("/accounts/login/", "/accounts/signup/")
    ):
        return LOGIN
    return str(response.status_code)


def test_every_page_is_in_the_matrix() -> None:
    assert set(web_routes()) == set(GET)


def test_who_may_read_each_page() -> None:
    cast = Cast()
    routes = web_routes()
    wrong = []
    for name, expected in GET.items():
        url = _url(name, routes[name], cast)
        got = tuple(_status(_client(cast, role).get(url)) for role in ROLES)
        if got != expected:
            wrong.append(f"{name} {url}: expected {expected}, got {got}")
    assert not wrong, "\n".join(wrong)


def _fingerprint(cast: Cast) -> tuple[Any, ...]:
    game = Game.objects.get(pk=cast.game.pk)
    dispute = Dispute.objects.get(pk=cast.dispute.pk)
    return (game.version, game.status, Dispute.objects.count(), dispute.status)


@pytest.mark.parametrize("role", [None, "outsider", "staff"])
def test_only_the_player_to_act_moves_and_only_seated_players_dispute(role: str | None) -> None:
    cast = Cast()
    client = _client(cast, role)
    before = _fingerprint(cast)
    view = cast.game
    action = '{"type": "pass"}'
    for name, data in [
        ("act", {"action": action, "version": str(view.version)}),
        ("dispute", {"reason": "I was not even there."}),
    ]:
        response = client.post(_url(name, "<int:game_id>", cast), data)
        assert response.status_code in {302, 400, 403, 404, 409}, (name, role)
        if role is None:
            assert _status(response) == LOGIN
    assert _fingerprint(cast) == before


@pytest.mark.parametrize("role", [None, "outsider", "owner"])
def test_only_staff_act_on_a_dispute(role: str | None) -> None:
    cast = Cast()
    client = _client(cast, role)
    before = _fingerprint(cast)
    for action in ("review", "dismiss", "void", "adjust", "rewind", "uphold"):
        url = reverse("staff:act", kwargs={"dispute_id": cast.dispute.pk, "action": action})
        response = client.post(url, {"reason": "Because.", "resolution": "Because."})
        assert _status(response) == (LOGIN if role is None else "403"), (action, role)
    assert _fingerprint(cast) == before


@pytest.mark.parametrize("role", [None, "outsider", "opponent", "staff"])
def test_only_its_creator_aborts_a_game_and_only_its_people_ask_for_a_rematch(
    role: str | None,
) -> None:
    cast = Cast()
    client = _client(cast, role)
    games = Game.objects.count()
    for game in (cast.game, cast.open_game):  # no person has moved in either yet
        before = Game.objects.get(pk=game.pk).status
        response = client.post(reverse("abort", kwargs={"game_id": game.pk}))
        assert _status(response) == (LOGIN if role is None else "302"), role
        assert Game.objects.get(pk=game.pk).status == before
    # The running game cannot be rematched by anyone; it is nobody else's to ask anyway.
    response = client.post(reverse("rematch", kwargs={"game_id": cast.game.pk}))
    assert _status(response) == (LOGIN if role is None else "302"), role
    assert Game.objects.count() == games


def test_anonymous_writes_are_sent_to_log_in_and_change_nothing() -> None:
    cast = Cast()
    games = Game.objects.count()
    for name in ("join", "game_create", "play_now"):
        route = web_routes()[name]
        response = Client().post(_url(name, route, cast), {"player_count": 3})
        assert _status(response) == LOGIN, name
    assert Game.objects.count() == games
