"""Pax Illuminaten's hidden information on every channel (15.4, H.8; issue 25).

A whole four-person game (capped at four rounds, 15.5.3), checked after every step for
every seat and a spectator: the API view and move log (bearer tokens, anonymous), the
table page, its htmx partial and the history page (sessions, anonymous), the answer to
each move (over the API and from the table), the notifications (in-app list), the
emails they make, the webhook deliveries' signed bodies, the game's event stream (read
over SSE at the end, each event against the state at its version) and the account
streams. None may show an audience a card id it has never seen in its own engine view:

* another seat's hand, event hand or private plot (until revealed), a sealed Oust card
  before the reveal (P-73);
* a face-down map card it has not scouted, the luminary, event and plot decks (their
  order included), the event box;
* the seed before the game ends.

Now and then the seat to act takes its action back (15.5.2, P-79: the API and the table
in turn) and plays it again: the undo's answer and every audience's view are checked on
the state the game returns to, and its ``move_undone`` event is in the stream.

What the audience may know is what ``engine.pax.view`` gave it at any step so far
(a card once seen stays known), which the engine's own tests pin against H.8.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from django.test import Client as DjangoClient
from pytest_django.fixtures import Settings as SettingsWrapper

from engine.pax.record import state_json
from engine.pax.view import view as pax_view
from games import kinds, notifications, selectors, services
from games.models import Event, GameStatus, Notification, WebhookDelivery
from tests.api.conftest import Bearer
from tests.api.support import Client, game_url
from tests.helpers import game_with_seed

pytestmark = pytest.mark.django_db

SEED = "hidden-pax-0"
# Luminaries, plots, special events and edicts as the API, pages and events write them.
CARD_ID = re.compile(r"(?<![\w-])(PIL\d{3}|P\d{2}|S\d{2}|E-[A-Z]{3})(?![\w-])")
DATA = re.compile(r"^data: (.*)$", re.MULTILINE)


def test_the_card_detector_finds_card_ids_in_every_form() -> None:
    for text in ('{"card": "PIL031"}', "<li>PIL031 Kant</li>", "&quot;P04&quot;", "S05, E-NOB"):
        assert CARD_ID.findall(text), text
    assert CARD_ID.findall("P-10 HTTP10 PIL0312 xS05") == []


def secret_ids(state: Any) -> set[str]:
    """Every id in a place some audience may not see (15.4): hands, event hands, private
    plots, face-down map cards, the decks, the event box, sealed Oust cards."""
    js = state_json(state)
    out: set[str] = set()
    for p in js["players"]:
        out |= set(p["hand"]) | set(p["events"])
        if p["plot"] is not None:
            out.add(p["plot"])
    for m in js["map"]:
        if not m["face_up"] and m["card"]:
            out.add(m["card"])
    for key in ("deck", "event_deck", "plot_deck", "event_box"):
        out |= {c for c in js[key] if isinstance(c, str)}
    if js["oust"] is not None:
        out |= {x["card"] for x in js["oust"]["sealed"] if x.get("card")}
    return out


def choose(actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A varied legal action: Oust always, Scout and Expel now and then when offered (their
    sealed cards and private looks are what this proof is about), else any."""
    for kind, chance in (("oust", 1.0), ("scout", 0.5), ("expel", 0.3)):
        some = [a for a in actions if a.get("type") == kind]
        if some and rng.random() < chance:
            return dict(rng.choice(some))
    return dict(rng.choice(actions))


def test_no_channel_shows_a_seat_or_a_spectator_what_pax_hides(
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
        user.email = f"seat{number}@example.org"
        user.save(update_fields=["email"])
    game = game_with_seed(
        creator=owner,
        seed=SEED,
        game_type="pax",
        player_count=4,
        rated=False,
        turn_timeout_seconds=86400,
        options={"round_cap": 4},  # an Oust, kept events and plots with this play
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
    known: dict[int | None, set[str]] = {seat: set() for seat in api}
    first_event = Event.objects.filter(game=game).order_by("id").first()
    assert first_event is not None
    rng = random.Random(7)
    htmx: dict[str, Any] = {"HTTP_HX_REQUEST": "true"}
    checked: dict[str, int] = {}
    seen_types: set[str] = set()

    def learn(state: Any) -> None:
        for seat in known:
            known[seat] |= set(CARD_ID.findall(json.dumps(pax_view(state, seat))))

    known_at: dict[int, dict[int | None, set[str]]] = {}

    def check(
        channel: str, text: str, state: Any, audience: int | None, version: int | None = None
    ) -> None:
        knew = known[audience] if version is None else known_at[version][audience]
        leaked = (set(CARD_ID.findall(text)) & secret_ids(state)) - knew
        assert not leaked, f"{channel} showed {audience!r} {sorted(leaked)} (v{game.version})"
        if state.result is None:
            assert state.g.seed not in text, f"{channel} showed the seed"
        checked[channel] = checked.get(channel, 0) + 1

    read: set[tuple[str, int, str]] = set()

    def account_channels(state: Any) -> None:
        """Each notification, its email and each webhook body, checked against the state
        of the step it first appears at (or changes at): they are written once, and
        checking them again at every later step cost the most of this proof."""
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

    def at(version: int) -> tuple[Any, int]:
        earlier = [v for v in truth if v <= version]
        v = max(earlier) if earlier else min(truth)
        return truth[v], v

    learn(truth[game.version])
    known_at[game.version] = {s: set(k) for s, k in known.items()}
    steps = undos = 0
    while game.status == GameStatus.IN_PROGRESS and steps < 1500:
        state = truth[game.version]
        for seat in api:
            check("API view", api[seat].get(game_url(game)).content.decode(), state, seat)
            moves = api[seat].get(game_url(game, "moves")).content.decode()
            check("API moves", moves, state, seat)
            if steps % 3 == 0:  # the pages are the slow part: every third step
                for page, headers, url in (
                    ("table page", {}, f"/games/{game.pk}/"),
                    ("table partial", htmx, f"/games/{game.pk}/"),
                    ("history", {}, f"/games/{game.pk}/history"),
                ):
                    response = web[seat].get(url, **headers)
                    assert response.status_code == 200, page
                    check(page, response.content.decode(), state, seat)
        account_channels(state)
        if game.to_act_seat is None:
            assert services.step_run(game_id=game.pk, key=kind.step_key(state))
        else:
            actor = game.to_act_seat
            view = api[actor].get(game_url(game)).json()
            action = choose(view["legal_actions"], rng)
            seen_types.add(action["type"])
            if steps % 2:
                answer = api[actor].post(
                    game_url(game, "actions"),
                    {"action": action, "version": view["version"]},
                    format="json",
                )
                assert answer.status_code == 200, answer.json()
            else:
                answer = web[actor].post(
                    f"/games/{game.pk}/act",
                    {"action": json.dumps(action), "version": view["version"]},
                    **htmx,
                )
                assert answer.status_code == 200, answer.content[:300]
            game.refresh_from_db()
            after = kind.load(game.snapshot)
            learn(after)
            check("move answer", answer.content.decode(), after, actor)
            if steps % 4 == 1 and api[actor].get(game_url(game)).json()["can_undo"]:
                # 15.5.2 (P-79): the actor takes the action back (the API and the table in
                # turn) and every audience is checked on the state it returns to; then the
                # same action again, so that the game goes on as drawn.
                truth[game.version] = after
                known_at[game.version] = {s: set(k) for s, k in known.items()}
                if undos % 2:
                    answer = api[actor].post(
                        game_url(game, "undo"), {"version": game.version}, format="json"
                    )
                else:
                    answer = web[actor].post(
                        f"/games/{game.pk}/undo", {"version": game.version}, **htmx
                    )
                assert answer.status_code == 200, answer.content[:300]
                undos += 1
                game.refresh_from_db()
                assert kind.load(game.snapshot) == state
                truth[game.version] = state
                known_at[game.version] = {s: set(k) for s, k in known.items()}
                check("undo answer", answer.content.decode(), state, actor)
                for seat in api:
                    check("API view", api[seat].get(game_url(game)).content.decode(), state, seat)
                answer = api[actor].post(
                    game_url(game, "actions"),
                    {"action": action, "version": game.version},
                    format="json",
                )
                assert answer.status_code == 200, answer.json()
                game.refresh_from_db()
                assert kind.load(game.snapshot) == after
        game.refresh_from_db()
        truth[game.version] = kind.load(game.snapshot)
        learn(truth[game.version])
        known_at[game.version] = {s: set(k) for s, k in known.items()}
        steps += 1
    assert game.status == GameStatus.FINISHED, steps
    assert {"oust_card", "scout", "keep_event", "keep_plot", "end"} <= seen_types, seen_types
    assert undos >= 10, undos
    account_channels(truth[game.version])

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
        assert "move_undone" in {event["type"] for event in events}
        for event in events:
            state, version = at(event["version"])
            check("game stream", json.dumps(event), state, seat, version)
        if seat is not None:
            response = client.get("/api/v1/stream", HTTP_LAST_EVENT_ID="0")
            for line in DATA.findall(b"".join(response.streaming_content).decode()):
                event = json.loads(line)
                state, version = at(event["version"] or 0)
                check("account stream", json.dumps(event), state, seat, version)
    assert min(checked.values()) >= 10, checked
    assert set(checked) == {
        "API view",
        "API moves",
        "table page",
        "table partial",
        "history",
        "move answer",
        "undo answer",
        "notification",
        "email",
        "webhook",
        "game stream",
        "account stream",
    }
    # The detector has something to find: mid-game, the full record (the server's own)
    # names cards the spectator never saw.
    middle, version = at(sorted(truth)[len(truth) // 2])
    unseen = secret_ids(middle) - known_at[version][None]
    assert unseen
    assert unseen & set(CARD_ID.findall(json.dumps(kind.record(middle))))
    record = api[None].get(game_url(game, "export")).json()
    assert selectors.record_verify(record) == []
