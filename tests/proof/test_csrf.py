"""CSRF on every form and HTMX post of the web site.

The URL resolver is walked (everything outside /api/v1/ and the Django admin), each
address is posted to with a valid CSRF token the way the page sends it (``hx-headers`` on
``<body>``), and every address that accepts a POST must be listed in ``POSTS`` below: a
new form can't be forgotten. For each one, a session POST without the token is refused
with 403 and changes nothing in the database; with the token it is accepted.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from games import services
from games.models import Game
from tests.api.support import finished_game, three_player_game
from tests.api.test_pax_undo import plain_action, to_menu

pytestmark = pytest.mark.django_db

# Exempt on purpose: the one-click unsubscribe link's signed token is its authority.
CSRF_EXEMPT = {"notifications-unsubscribe"}
HX_HEADERS = re.compile(r"<body[^>]*hx-headers='([^']*)'")


def _walk(resolver: URLResolver, prefix: str = "") -> Iterator[tuple[str, str]]:
    for entry in resolver.url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from _walk(entry, route)
        elif isinstance(entry, URLPattern) and entry.name:
            namespace = ":".join(filter(None, [getattr(resolver, "namespace", None)]))
            yield (f"{namespace}:{entry.name}" if namespace else entry.name), route


def web_routes() -> dict[str, str]:
    """Every named page route outside the API and the admin, by URL name."""
    routes: dict[str, str] = {}
    for name, route in _walk(get_resolver()):
        if route.startswith(("api/", "admin/", "^api", "healthz")):
            continue
        routes.setdefault(name, route)
    return routes


class Cast:
    """Who posts, and the objects the addresses point at."""

    def __init__(self) -> None:
        make = get_user_model().objects.create_user
        self.owner, self.opponent, self.third = (
            make(username=n, password="pw-Secret-1") for n in ("owner", "opponent", "third")
        )
        self.outsider = make(username="outsider", password="pw-Secret-1")
        self.staff = make(username="staff", password="pw-Secret-1", is_staff=True)
        for user in (self.owner, self.opponent, self.third, self.outsider, self.staff):
            services.player_ensure(user=user)
        self.game = three_player_game(self.owner, self.opponent, self.third)
        self.open_game = services.game_create(creator=self.owner, player_count=3, rated=False)
        self.dispute = services.dispute_create(
            game_id=self.game.pk, user=self.opponent, reason="A card went missing."
        )

    def finished_game(self) -> Game:
        return finished_game(self.owner, self.opponent, self.third)

    def actor(self) -> Any:
        self.game.refresh_from_db()
        return [self.owner, self.opponent, self.third][self.game.to_act_seat or 0]


# URL name -> (who posts: a Cast attribute or None for anonymous, url kwargs, form data)
Post = tuple[str | None, Callable[[Cast], dict[str, Any]], Callable[[Cast], dict[str, Any]]]


def _legal(cast: Cast) -> dict[str, Any]:
    view = services_view(cast)
    return {"action": json.dumps(view["legal_actions"][0]), "version": str(cast.game.version)}


def services_view(cast: Cast) -> dict[str, Any]:
    from games import selectors

    cast.game.refresh_from_db()
    return selectors.game_view(game=cast.game, user=cast.actor())


NONE: Callable[[Cast], dict[str, Any]] = lambda cast: {}  # noqa: E731
POSTS: dict[str, Post] = {
    "play_now": ("owner", NONE, NONE),
    "signup": (
        None,
        NONE,
        lambda c: {
            "username": "newcomer",
            "password1": "a-Long-pass-9",
            "password2": "a-Long-pass-9",
            "language": "en",
        },
    ),
    "language": ("owner", NONE, lambda c: {"language": "ja", "next": "/"}),
    "game_create": (
        "owner",
        NONE,
        lambda c: {"player_count": "3", "variant": "basic", "rated": ""},
    ),
    "act": ("actor", lambda c: {"game_id": c.game.pk}, _legal),
    "join": ("outsider", lambda c: {"game_id": c.open_game.pk}, NONE),
    "dispute": ("actor", lambda c: {"game_id": c.game.pk}, lambda c: {"reason": "Misdeal?"}),
    # Issue 21: "Continue" after a hand (the session only), rematch, abort.
    "hand_seen": ("owner", lambda c: {"game_id": c.game.pk}, lambda c: {"hand": "1"}),
    "rematch": ("owner", lambda c: {"game_id": c.finished_game().pk}, NONE),
    "abort": ("owner", lambda c: {"game_id": c.open_game.pk}, NONE),
    # Pax Illuminaten's "Undo my last action" (15.5.2), right after an Influence.
    "undo": ("owner", lambda c: {"game_id": _pax_undoable(c).pk}, lambda c: _pax_version(c)),
    "settings": ("owner", NONE, lambda c: {"form": "token", "name": "cli", "play": "on"}),
    "staff:act": (
        "staff",
        lambda c: {"dispute_id": c.dispute.pk, "action": "review"},
        lambda c: {"reason": "Looking into it."},
    ),
    "login": (None, NONE, lambda c: {"username": "owner", "password": "pw-Secret-1"}),
    "logout": ("owner", NONE, NONE),
    "password_change": (
        "owner",
        NONE,
        lambda c: {
            "old_password": "pw-Secret-1",
            "new_password1": "an-Other-pass-7",
            "new_password2": "an-Other-pass-7",
        },
    ),
    "password_reset": (None, NONE, lambda c: {"email": "nobody@example.org"}),
    "password_reset_confirm": (
        None,
        lambda c: {
            "uidb64": urlsafe_base64_encode(force_bytes(c.owner.pk)),
            "token": default_token_generator.make_token(c.owner),
        },
        NONE,
    ),
    "set_language": (None, NONE, lambda c: {"language": "ja", "next": "/"}),
    "profile": (
        "owner",
        lambda c: {"username": c.owner.username},
        lambda c: {"display_name": "The Owner"},
    ),
    "settings-email": ("owner", NONE, lambda c: {"form": "give", "email": "owner@example.org"}),
    "email-confirm": (None, lambda c: {"token": _confirmation_token(c)}, NONE),
    "inbox-read": (
        "owner",
        lambda c: {"notification_id": c.owner.notifications.filter(read_at=None).first().pk},
        NONE,
    ),
    "inbox-read-all": ("owner", NONE, NONE),
    # New Eleusis' editor checks the dealer's rule as it is typed (changes nothing).
    "eleusis_rule_check": (
        "owner",
        lambda c: {"game_id": _eleusis_dealing(c).pk},
        lambda c: {"source": "accept card.red"},
    ),
}


def _pax_undoable(cast: Cast) -> Game:
    """A Pax sandbox (the owner against a random bot) where the owner's last action, an
    Influence, can be taken back (P-79)."""
    game = services.game_create(
        creator=cast.owner,
        game_type="pax",
        player_count=2,
        rated=False,
        seed="csrf-undo-0",
        bots=[(1, "random")],
        options={"round_cap": 2},
    )
    want = lambda g: plain_action(g, 0, "influence")  # noqa: E731
    game = to_menu(game, {0: cast.owner}, random.Random(0), want=want)
    services.action_submit(game_id=game.pk, user=cast.owner, action=want(game))
    return game


def _pax_version(cast: Cast) -> dict[str, Any]:
    return {"version": str(Game.objects.filter(game_type="pax").latest("pk").version)}


def _eleusis_dealing(cast: Cast) -> Game:
    """A New Eleusis sandbox whose dealer, the owner, is choosing the rule (E04)."""
    game = services.game_create(
        creator=cast.owner,
        game_type="eleusis",
        player_count=4,
        rated=False,
        seed="eltable-4",  # U(seed, eleusis/first-dealer, 4) = 0: the owner deals
        bots=[(1, "novice"), (2, "novice"), (3, "novice")],
        options={"sanity_walks": 3},
    )
    assert game.to_act_seat == 0
    return game


def _confirmation_token(cast: Cast) -> str:
    """The owner gave an address; the token of its confirmation link."""
    from games import email_addresses

    email_addresses.address_give(user=cast.owner, address="owner@example.org")
    return email_addresses.confirmation_token(user_id=cast.owner.pk, address="owner@example.org")


# Other kwargs an address may need, to try a POST at it.
DEFAULT_KWARGS: dict[str, Callable[[Cast], Any]] = {
    "game_id": lambda c: c.game.pk,
    "dispute_id": lambda c: c.dispute.pk,
    "action": lambda c: "review",
    "token": lambda c: "x",
    "uidb64": lambda c: urlsafe_base64_encode(force_bytes(c.owner.pk)),
    "username": lambda c: c.owner.username,
    "game_type": lambda c: "eleusis",
    "notification_id": lambda c: c.owner.notifications.order_by("pk").first().pk,
    "number": lambda c: 1,
}


def _url(route: str, kwargs: dict[str, Any]) -> str:
    path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(kwargs[m.group(1)]), route)
    return "/" + path.lstrip("^").rstrip("$")


def _client(cast: Cast, who: str | None) -> Client:
    client = Client(enforce_csrf_checks=True)
    if who == "actor":
        client.force_login(cast.actor())
    elif who is not None:
        client.force_login(getattr(cast, who))
    return client


def _csrf_header(client: Client) -> dict[str, str]:
    """The header htmx sends: the page's ``<body hx-headers='{"X-CSRFToken": ...}'>``."""
    page = client.get("/rules/")
    match = HX_HEADERS.search(page.content.decode())
    assert match, "every page carries the CSRF token in hx-headers on <body>"
    headers: dict[str, str] = json.loads(match.group(1))
    return {"HTTP_X_CSRFTOKEN": headers["X-CSRFToken"]}


def database_state() -> list[Any]:
    """Every row of every table except sessions (which a GET may create)."""
    state: list[Any] = []
    for model in apps.get_models():
        if model._meta.label in {"sessions.Session", "admin.LogEntry"}:
            continue
        state.append((model._meta.label, list(model.objects.order_by("pk").values_list())))
    return state


def test_every_address_that_accepts_a_post_is_in_the_csrf_table() -> None:
    cast = Cast()
    routes = web_routes()
    accepting: set[str] = set()
    for name, route in routes.items():
        kwargs = {key: make(cast) for key, make in DEFAULT_KWARGS.items()}
        client = _client(cast, "staff")
        response = client.post(_url(route, kwargs), {}, **_csrf_header(client))
        if response.status_code != 405:
            accepting.add(name)
    assert accepting - CSRF_EXEMPT == set(POSTS)
    assert set(POSTS) <= set(routes), set(POSTS) - set(routes)


@pytest.mark.parametrize("name", sorted(POSTS))
def test_a_post_without_the_csrf_token_is_refused_and_changes_nothing(name: str) -> None:
    cast = Cast()
    who, kwargs, data = POSTS[name]
    url = _url(web_routes()[name], kwargs(cast))
    client = _client(cast, who)
    client.get("/rules/")  # the CSRF cookie is set, as in a browser that loaded a page
    before = database_state()
    response = client.post(url, data(cast), HTTP_HX_REQUEST="true")
    assert response.status_code == 403, (name, response.status_code)
    assert database_state() == before


@pytest.mark.parametrize("name", sorted(POSTS))
def test_a_post_with_the_token_from_hx_headers_is_accepted(name: str) -> None:
    cast = Cast()
    who, kwargs, data = POSTS[name]
    url = _url(web_routes()[name], kwargs(cast))
    client = _client(cast, who)
    before = database_state()
    response = client.post(url, data(cast), HTTP_HX_REQUEST="true", **_csrf_header(client))
    assert response.status_code in {200, 204, 302, 303}, (name, response.status_code)
    # hand_seen: what it changes is the session ("Continue" after a hand), left out here.
    unchanged = {
        "password_reset",
        "login",
        "logout",
        "set_language",
        "password_reset_confirm",
        "eleusis_rule_check",
    }
    if name not in unchanged | {"hand_seen"}:
        assert database_state() != before, f"{name}: the accepted post changed something"


def test_the_unsubscribe_link_is_the_only_exempt_form_and_needs_its_signed_token() -> None:
    cast = Cast()
    client = Client(enforce_csrf_checks=True)
    before = database_state()
    response = client.post("/notifications/unsubscribe/not-a-signed-token")
    assert response.status_code in {400, 404}
    assert database_state() == before
    exempt = {
        name
        for name, route in web_routes().items()
        if getattr(
            get_resolver()
            .resolve(_url(route, {k: m(cast) for k, m in DEFAULT_KWARGS.items()}))
            .func,
            "csrf_exempt",
            False,
        )
    }
    assert exempt == CSRF_EXEMPT
