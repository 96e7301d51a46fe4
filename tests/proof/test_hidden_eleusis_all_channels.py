"""New Eleusis' hidden information on every channel (NE-23.4, NE-28; issue 24 item 5).

Two whole rounds of a four-person game, checked after every step for every seat and a
spectator: the API view and move log (bearer tokens, anonymous), the table page, its
htmx partial and the history page (sessions, anonymous), the answer to each move (over
the API and from the table), the notifications (in-app list), the emails they make, the
webhook deliveries' signed bodies, the game's event stream (read over SSE at the end, each
event against the state at its version) and the account streams; and the New Eleusis
table's regions alone (``?part=``: status, layout, seats, hand, editor, news, reveal) and
each round's verification page (404 until the round is revealed). None may show:

* a card of another seat's hand, of the stock or a starter put back that the spectator's
  view does not show (NE-28.1, 28.3: shown hands and pending plays are public);
* before its round is scored: the rule's source and canonical form (but to the dealer),
  the salt (but to the dealer), the round seed, a standing prophecy (but to the prophet);
  the game seed before the game ends.

The dealers write their own rule once and pick library rules otherwise; players play
single cards, strings and no plays, declare prophet and call; the prophet registers a
standing prophecy.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from django.test import Client as DjangoClient
from pytest_django.fixtures import Settings as SettingsWrapper

from engine import eleusis
from engine.eleusis.commitment import rule_salt
from engine.eleusis.deck import card_ids
from games import kinds, notifications, selectors, services
from games.models import Event, GameStatus, Notification, WebhookDelivery
from games.web import pages_eleusis
from tests.api.conftest import Bearer
from tests.api.support import Client, game_url
from tests.helpers import game_with_seed

pytestmark = pytest.mark.django_db

SEED = "hidden-eleusis-0"  # the game's seed (set before the deal, as game_with_seed does)
# A card id as the API, the pages and the events write it: rank, suit, copy ("10H.2").
CARD_ID = re.compile(r"(?<![\w.])((?:10|[2-9AJQK])[CDHS]\.\d+)(?![\w.])")
DATA = re.compile(r"^data: (.*)$", re.MULTILINE)
OWN_RULE = "accept card.red != prev.red"  # R01's rule written out by a dealer
PROPHECY = "accept card.rank <= 9 or card.black"  # not part of OWN_RULE


def test_the_card_detector_finds_card_ids_in_every_form() -> None:
    for text in (
        '{"cards": ["10H.2"]}',
        "<li>10H.2</li>",
        "<p>AC.1 10H.2</p>",
        "&quot;10H.2&quot;",
    ):
        assert "10H.2" in CARD_ID.findall(text), text
    assert CARD_ID.findall("R10H.21 version 10.2") == []


def hidden_cards(state: Any, audience: int | None) -> set[str]:
    """Cards the audience may not know: other seats' hands, the stock, starters put back,
    less every card the spectator's view shows (shown hands, pending plays, lines)."""
    r = state.round
    secret = set(card_ids(r.stock))
    for seat, hand in enumerate(r.hands):
        if seat != audience:
            secret |= set(card_ids(hand))
    secret |= {c for c in card_ids([card for card, kept in r.starter if not kept])}
    public = set(CARD_ID.findall(json.dumps(eleusis.view(state, None))))
    return secret - public


def secret_texts(state: Any, audience: int | None) -> set[str]:
    """Strings the audience may not read yet: this round's rule (source, canonical form),
    salt and seed unless scored, a standing prophecy, the game seed before the end."""
    r = state.round
    secrets: set[str] = set()
    if r.rule is not None and r.score is None:
        if audience != r.dealer:
            secrets |= {r.rule.source, rule_salt(r.seed).hex()}
        secrets.add(r.seed)
    if r.prophecy is not None and audience != r.prophet and r.score is None:
        secrets.add(r.prophecy)
    if state.end is None:
        secrets.add(state.seed)
    return {s for s in secrets if s}


def leaks(text: str, state: Any, audience: int | None) -> set[str]:
    found = set(CARD_ID.findall(text)) & hidden_cards(state, audience)
    return found | {s for s in secret_texts(state, audience) if s in text}


def choose(view: dict[str, Any], rng: random.Random, wrote: list[bool]) -> dict[str, Any]:
    """A varied legal action: the first dealer writes their own rule, then library
    picks; single cards, strings of 2, no plays, declarations, calls, a prophecy."""
    phase = view["phase"]
    if phase == "rule_setup":
        if not wrote[0]:
            wrote[0] = True
            return {"type": "set_rule", "source": OWN_RULE, "confirm_warnings": True}
        return {"type": "library_rule", "difficulty": "easy"}
    explicit = [a for a in view["legal_actions"] if "template" not in a]
    kinds_left = {a["type"] for a in view["legal_actions"]}
    if "set_prophecy" in kinds_left and view["my_prophecy"] is None and rng.random() < 0.5:
        return {"type": "set_prophecy", "source": PROPHECY}
    if phase == "turn":
        hand = view["my_hand"]
        roll = rng.random()
        intent = "declare" if view["prophet_possible"] and rng.random() < 0.3 else "no"
        if roll < 0.2 and len(hand) >= 3:
            return {"type": "play", "cards": rng.sample(hand, 2), "prophet": intent}
        if roll < 0.3:
            return {"type": "no_play", "prophet": "no"}
        return {"type": "play", "cards": [rng.choice(hand)], "prophet": intent}
    return dict(rng.choice([a for a in explicit if a["type"] != "set_prophecy"] or explicit))


def test_no_channel_shows_a_seat_or_a_spectator_what_new_eleusis_hides(
    owner: Any,
    opponent: Any,
    third: Any,
    outsider: Any,
    bearer: Bearer,
    settings: SettingsWrapper,
) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None, "actions": None},
    }
    settings.WEB_RATE_LIMITS = {}
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    people = [owner, opponent, third, outsider]
    for number, user in enumerate(people):
        user.email = f"seat{number}@example.org"  # confirmed: notifications are emailed
        user.save(update_fields=["email"])
    game = game_with_seed(
        creator=owner,
        seed=SEED,
        game_type="eleusis",
        player_count=4,
        rated=False,
        turn_timeout_seconds=86400,
        options={"hand_size": 5, "sanity_walks": 20, "round_limit": 2},
    )
    api: dict[int | None, Client] = {None: Client()}
    web: dict[int | None, DjangoClient] = {None: DjangoClient()}
    for seat, user in enumerate(people):
        if seat:
            services.game_join(game_id=game.pk, user=user)
        api[seat] = bearer(user)
        api[seat].post(
            "/api/v1/webhooks", {"url": "http://127.0.0.1:9/hook", "kinds": []}, format="json"
        )
        web[seat] = DjangoClient()
        web[seat].force_login(user)
    game.refresh_from_db()
    kind = kinds.of(game)
    truth: dict[int, Any] = {game.version: kind.load(game.snapshot)}
    first_event = Event.objects.filter(game=game).order_by("id").first()
    assert first_event is not None
    rng, wrote = random.Random(3), [False]
    htmx: dict[str, Any] = {"HTTP_HX_REQUEST": "true"}
    checked: dict[str, int] = {}
    seen_types: set[str] = set()

    def check(channel: str, text: str, state: Any, audience: int | None) -> None:
        leaked = leaks(text, state, audience)
        assert not leaked, f"{channel} showed {audience!r} {sorted(leaked)} (v{game.version})"
        checked[channel] = checked.get(channel, 0) + 1

    read: set[tuple[str, int, str]] = set()

    def account_channels(state: Any) -> None:
        """Notifications (in-app), the emails they make, webhook bodies: each person's,
        each checked against the state of the step it first appears at (or changes at):
        they are written once, and checking them again at every step cost the most."""
        for seat, user in enumerate(people):
            for note in Notification.objects.filter(user=user):
                text = json.dumps([note.title, note.body, note.data])
                if ("notification", note.pk, text) not in read:
                    read.add(("notification", note.pk, text))
                    check("notification", text, state, seat)
                    check("email", notifications._email_message(note, user).body, state, seat)
            for delivery in WebhookDelivery.objects.filter(webhook__user=user):
                if ("webhook", delivery.pk, delivery.body) not in read:
                    read.add(("webhook", delivery.pk, delivery.body))
                    check("webhook", delivery.body, state, seat)

    def at(version: int) -> Any:
        """The state at a version: the last one stored at or before it (the first
        before the game started)."""
        earlier = [v for v in truth if v <= version]
        return truth[max(earlier)] if earlier else truth[min(truth)]

    steps = 0
    while game.status == GameStatus.IN_PROGRESS and steps < 400:
        state = truth[game.version]
        for seat in api:
            check("API view", api[seat].get(game_url(game)).content.decode(), state, seat)
            moves = api[seat].get(game_url(game, "moves")).content.decode()
            check("API moves", moves, state, seat)
            # The pages at every other step (a hand, a rule and a prophecy stay hidden for
            # longer than a step), the API at every step: the pages were most of the cost.
            pages = [
                ("table page", {}, f"/games/{game.pk}/"),
                ("table partial", htmx, f"/games/{game.pk}/"),
                ("history", {}, f"/games/{game.pk}/history"),
            ]
            if steps % 2:
                pages = []
            elif steps % 6 == 0:  # every region of the table alone (issue 24, item 4)
                pages += [
                    ("table regions", htmx, f"/games/{game.pk}/?part={part}")
                    for part in sorted(pages_eleusis.TABLE_PARTS)
                ]
            for page, headers, url in pages:
                response = web[seat].get(url, **headers)
                assert response.status_code == 200, page
                check(page, response.content.decode(), state, seat)
            for number in range(1, len(state.rounds) + 1):  # NE-29.2 on revealed rounds
                response = web[seat].get(f"/games/{game.pk}/rounds/{number}/verify")
                revealed = state.rounds[number - 1].score is not None
                assert response.status_code == (200 if revealed else 404), number
                check("round verification", response.content.decode(), state, seat)
        account_channels(state)
        if game.to_act_seat is None:
            assert services.step_run(game_id=game.pk, key=kind.step_key(state))
        else:
            actor = game.to_act_seat
            view = api[actor].get(game_url(game)).json()
            action = choose(view, rng, wrote)
            seen_types.add(action["type"])
            if action.get("prophet") == "declare":
                seen_types.add("declare")
            if len(action.get("cards", [])) > 1:
                seen_types.add("string")
            if steps % 2:
                answer = api[actor].post(
                    game_url(game, "actions"),
                    {"action": action, "version": view["version"]},
                    format="json",
                )
                assert answer.status_code == 200, answer.json()
                text = answer.content.decode()
            else:
                answer = web[actor].post(
                    f"/games/{game.pk}/act",
                    {"action": json.dumps(action), "version": view["version"]},
                    **htmx,
                )
                assert answer.status_code == 200, answer.content[:300]
                text = answer.content.decode()
            game.refresh_from_db()
            check("move answer", text, kind.load(game.snapshot), actor)
        game.refresh_from_db()
        truth[game.version] = kind.load(game.snapshot)
        steps += 1
    assert game.status == GameStatus.FINISHED, steps
    assert {
        "set_rule",
        "library_rule",
        "play",
        "string",
        "no_play",
        "declare",
        "call",
        "set_prophecy",
    } <= seen_types, seen_types

    # The game's stream as each audience receives it over SSE, from the first event on;
    # the account streams of the four people.
    settings.STREAM_MAX_SECONDS = 0.5
    settings.STREAM_POLL_SECONDS = 0.05
    for seat, client in api.items():
        response = client.get(
            f"/api/v1/games/{game.pk}/stream", HTTP_LAST_EVENT_ID=str(first_event.pk - 1)
        )
        assert response.status_code == 200
        events = [
            json.loads(line) for line in DATA.findall(b"".join(response.streaming_content).decode())
        ]
        assert len(events) == Event.objects.filter(game=game).count()
        for event in events:
            check("game stream", json.dumps(event), at(event["version"]), seat)
        if seat is not None:
            response = client.get("/api/v1/stream", HTTP_LAST_EVENT_ID="0")
            for line in DATA.findall(b"".join(response.streaming_content).decode()):
                event = json.loads(line)
                check("account stream", json.dumps(event), at(event["version"] or 0), seat)
    # Every channel was looked at, many times.
    assert min(checked.values()) >= 10, checked
    assert set(checked) == {
        "API view",
        "API moves",
        "table page",
        "table partial",
        "table regions",
        "round verification",
        "history",
        "move answer",
        "notification",
        "email",
        "webhook",
        "game stream",
        "account stream",
    }
    # Once the game is over, everything is public: the record verifies.
    record = api[None].get(game_url(game, "export")).json()
    assert eleusis.verify(record).ok
    assert selectors.record_verify(record) == []
    assert OWN_RULE in json.dumps(record)
