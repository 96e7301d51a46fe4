"""One whole game, checked at every step on all three channels at once, for every seat and
a spectator: the API view and move log (bearer tokens / anonymous), the HTMX table
partial (sessions / anonymous) and the live event stream (read over real SSE at the end,
each event checked against the hands at its version). Reuses the per-channel checkers of
tests/api/test_live_game.py (Inspector) and tests/streams/test_events.py (hidden_from)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client as DjangoClient
from pytest_django.fixtures import Settings as SettingsWrapper

import engine.indulgence as rules
from engine.cards import CARD_IDS
from games import selectors, services
from games.models import Event, GameStatus
from games.web.indulgence_vocab import card_label
from games.web.views import TABLE_PARTS
from tests.api.conftest import Bearer
from tests.api.support import Client, game_url
from tests.api.test_live_game import Inspector
from tests.helpers import game_with_seed
from tests.streams.test_events import hidden_from

pytestmark = pytest.mark.django_db

# A card id quoted in HTML (an attribute value or escaped JSON in one).
QUOTED_CARD = re.compile(r'(?:"|&quot;|&#x27;|\')([BMOS][1-9])(?:"|&quot;|&#x27;|\')')
# A card face as the table draws it: <b>rank</b><i>family letter</i>.
DRAWN_CARD = re.compile(r"<b>([1-9])</b><i>([BMOS])</i>")
DATA = re.compile(r"^data: (.*)$", re.MULTILINE)
# An expert game whose random play (these choices) is short (about 50 steps) and has a
# face-down ("Don't take any tricks") hand.
SEED, CHOICES = "a", 1


def html_cards(html: str) -> set[str]:
    """Every card the page names in any form: quoted ids (attributes, JSON), drawn faces,
    and cards named by their label anywhere (aria-label, title, text)."""
    found = set(QUOTED_CARD.findall(html))
    found |= {letter + rank for rank, letter in DRAWN_CARD.findall(html)}
    found |= {card for card in CARD_IDS if re.search(rf"\b{card_label(card)}\b", html)}
    return found


def test_the_detector_finds_a_card_in_every_form_it_can_take() -> None:
    label = card_label("M7")
    for html in (
        '<button value="M7">',
        "{&quot;card&quot;: &quot;M7&quot;}",
        '<span class="card f-m"><b>7</b><i>M</i></span>',
        f'<span aria-label="{label}"></span>',
        f"<li>seat 2 played {label}.</li>",
        f"<svg><title>{label}</title></svg>",
    ):
        assert "M7" in html_cards(html), html
    assert html_cards("<p>Medici 17 florins; M71</p>") == set()


HAND_OVER = re.compile(r'<section id="hand-over".*?</section>', re.S)


def without_the_settled_hand(html: str, state: rules.State) -> str:
    """The page without its end-of-hand panel, once that panel is checked: issue 21 keeps
    the hand that ended (its last trick, taken in view of everyone: rules "Play") on a
    player's table until they move on, while the next deal may give any of those cards
    to anyone. The panel must name exactly the cards of that trick and no other."""
    match = HAND_OVER.search(html)
    if match is None:
        return html
    last_trick = state.history[-1].tricks[-1]
    played = {CARD_IDS[card] for _seat, card, _ring in last_trick.plays}
    assert html_cards(match.group(0)) == played, "the end-of-hand panel named other cards"
    return html[: match.start()] + html[match.end() :]


HISTORY_HAND = re.compile(r"<li><h3>Hand (\d+)</h3>")


def without_the_settled_hands(html: str, state: rules.State) -> str:
    """The history page without its hands, once each is checked: issue 21 lists every trick
    of every settled hand (public: rules "Play"), whose cards a later deal may give to
    anyone. Each hand must name only the cards played in its own tricks (never its deal:
    the cards of a hand that ended early stay unknown); outside the hands, nothing."""
    starts = [(m.start(), int(m.group(1))) for m in HISTORY_HAND.finditer(html)]
    records = {record.number: record for record in state.history}
    assert [number for _at, number in starts] == sorted(records)
    if not starts:
        return html
    ends = [at for at, _n in starts[1:]] + [html.index("</li>\n</ol>", starts[-1][0])]
    for (at, number), end in zip(starts, ends, strict=True):
        played = {CARD_IDS[c] for t in records[number].tricks for _s, c, _r in t.plays}
        shown = html_cards(html[at:end])
        assert shown <= played, f"hand {number} of the history named {shown - played}"
    return html[: starts[0][0]] + html[ends[-1] :]


TABLE_TEMPLATE = Path(settings.BASE_DIR) / "templates" / "games" / "table.html"
# The regions that show a seat's own cards (the detector must find them there).
OWN_HAND_SHOWN = {"full page", "table partial", "#table partial", "#hand partial", "live poll"}


def table_partials() -> list[str]:
    """Every named partial of the table template but the single-card one; each must be
    served by ?part= (a new region added to the template without it fails here)."""
    names = re.findall(r"{% partialdef (\w+)", TABLE_TEMPLATE.read_text())
    regions = sorted(set(names) - {"card"})
    assert set(regions) == set(TABLE_PARTS), (regions, TABLE_PARTS)
    return regions


# (players, variant, seed, random choices, hands to play: None = the whole game)
GAMES = [
    pytest.param(3, "expert", SEED, CHOICES, None, id="3p-expert-whole-game"),
    pytest.param(4, "basic", "four", 7, 1, id="4p-basic-one-hand"),
    pytest.param(3, "basic", "three", 3, 1, id="3p-basic-one-hand"),
    pytest.param(4, "expert", "four-expert", 5, 1, id="4p-expert-one-hand"),
]


@pytest.mark.parametrize(("players", "variant", "seed", "choices", "hands"), GAMES)
def test_no_channel_shows_any_seat_or_a_spectator_a_hidden_card_at_any_step(
    players: int,
    variant: str,
    seed: str,
    choices: int,
    hands: int | None,
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
    game = game_with_seed(
        creator=owner, player_count=players, variant=variant, rated=False, seed=seed
    )
    seated = [owner, opponent, third, outsider][:players]
    for user in seated[1:]:
        services.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    users = dict(enumerate(seated))
    first_event = Event.objects.filter(game=game).order_by("id").values_list("id", flat=True)[0]
    api: dict[int | None, Client] = {seat: bearer(user) for seat, user in users.items()}
    api[None] = Client()
    web: dict[int | None, DjangoClient] = {None: DjangoClient()}
    for seat, user in users.items():
        web[seat] = DjangoClient()
        web[seat].force_login(user)
    inspector = Inspector(game.pk)
    rng = random.Random(choices)
    steps = partials = acted = 0
    # Every page a person may open on this game: the full page, every htmx partial the
    # table serves (?part=, enumerated from the template), the live poll (?since=), and
    # the hand and game history. The acting seat's htmx move answer is checked below.
    htmx: dict[str, Any] = {"HTTP_HX_REQUEST": "true"}
    # The regions alone (?part=, parts of the table partial checked at every step) are
    # checked at every other step: a hand or a face-down trick stays hidden for at least
    # two steps, and the regions were a third of this proof's cost.
    pages = {
        "full page": ({}, f"/games/{game.pk}/"),
        "table partial": (htmx, f"/games/{game.pk}/"),
        "history": (htmx, f"/games/{game.pk}/history"),
    }
    regions = {
        f"#{part} partial": (htmx, f"/games/{game.pk}/?part={part}") for part in table_partials()
    }
    while game.status == GameStatus.IN_PROGRESS:
        hand_number = selectors.game_view(game=game, user=owner)["hand_number"]
        if hands is not None and hand_number > hands:
            break
        for seat in api:
            view = api[seat].get(game_url(game)).json()
            inspector.view(view, seat)
            inspector.moves(api[seat].get(game_url(game, "moves")).json(), seat)
            state = inspector.truth.at(game.version)
            poll = f"/games/{game.pk}/?since={max(game.version - 1, 0)}"
            paused = False
            shown = {**pages, **(regions if steps % 2 == 0 else {}), "live poll": (htmx, poll)}
            for page, (headers, url) in shown.items():
                response = web[seat].get(url, **headers)
                assert response.status_code == 200, (page, response.status_code)
                page_paused = HAND_OVER.search(response.content.decode()) is not None
                paused |= page_paused
                html = without_the_settled_hand(response.content.decode(), state)
                if page == "history":
                    html = without_the_settled_hands(html, state)
                leaked = html_cards(html) & hidden_from(state, seat)
                assert not leaked, f"the {page} showed seat {seat} {leaked} (step {steps})"
                # The detector sees hands (a table paused on the hand that ended shows the
                # new hand only after "Continue"; its #hand partial shows it always).
                if seat is not None and page in OWN_HAND_SHOWN and not page_paused:
                    assert set(view["my_hand"]) <= html_cards(html), page
                partials += 1
            if paused:  # checked once paused: "Continue", so the next steps show the deal
                settled = view["last_settlement"]["hand"]
                web[seat].post(f"/games/{game.pk}/seen", {"hand": settled}, **htmx)
        if game.to_act_seat is None:
            hand = selectors.game_view(game=game, user=owner)["hand_number"]
            services.hand_settle(game_id=game.pk, hand_number=hand)
        else:
            actor = game.to_act_seat
            view = api[actor].get(game_url(game)).json()
            action = rng.choice(view["legal_actions"])
            if steps % 2:  # over the API
                answer = api[actor].post(
                    game_url(game, "actions"),
                    {"action": action, "version": view["version"]},
                    format="json",
                )
                assert answer.status_code == 200, answer.json()
            else:  # from the table (htmx): the answer is the table after the move
                moved = web[actor].post(
                    f"/games/{game.pk}/act",
                    {"action": json.dumps(action), "version": view["version"]},
                    **htmx,
                )
                assert moved.status_code == 200, moved.content[:300]
                game.refresh_from_db()
                after = inspector.truth.at(game.version)
                shown = without_the_settled_hand(moved.content.decode(), after)
                leaked = html_cards(shown) & hidden_from(after, actor)
                assert not leaked, f"the move answer showed seat {actor} {leaked} (step {steps})"
                acted += 1
        steps += 1
        game.refresh_from_db()
    if hands is None:
        assert inspector.face_down_views > 0, "the game should include a face-down trick"

    # The stream, as each audience receives it over SSE from the first event on.
    settings.STREAM_MAX_SECONDS = 0.5
    settings.STREAM_POLL_SECONDS = 0.05
    streamed = 0
    for seat, client in api.items():
        response = client.get(
            f"/api/v1/games/{game.pk}/stream", HTTP_LAST_EVENT_ID=str(first_event - 1)
        )
        assert response.status_code == 200
        body = b"".join(response.streaming_content).decode()
        events = [json.loads(line) for line in DATA.findall(body)]
        assert len(events) == Event.objects.filter(game=game).count()
        for event in events:
            state = inspector.truth.at(event["version"])
            shown = {c for c in re.findall(r'"([BMOS][1-9])"', json.dumps(event))}
            leaked = shown & hidden_from(state, seat)
            assert not leaked, f"stream event {event['type']} showed seat {seat} {leaked}"
            streamed += 1
    state = rules.state_from_json(game.snapshot)
    assert rules.is_over(state) or hands is not None
    assert steps >= 10
    even_steps = (steps + 1) // 2
    assert partials == (players + 1) * ((len(pages) + 1) * steps + len(regions) * even_steps)
    assert acted >= steps // 3
    assert streamed > (players + 1) * 10
