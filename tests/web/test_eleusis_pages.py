"""The pages dispatch per game (issue 24): the lobby's create form of each game, a New
Eleusis table (its own template, the seat's view, its forms posting to the same address),
its replay and rules page; Indulgence's pages as they were."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from games import kinds, selectors
from games.models import Game, GameStatus
from games.web import pages_eleusis, picker
from tests.helpers import server_steps
from tests.web.conftest import client_for

pytestmark = pytest.mark.django_db


def test_the_lobby_offers_each_games_create_form(owner_client: Client) -> None:
    indulgence = owner_client.get("/lobby/").content.decode()
    assert 'name="game_type" value="indulgence"' in indulgence
    assert 'name="seat_3"' in indulgence
    assert 'name="seat_4"' not in indulgence
    eleusis = owner_client.get("/lobby/?game=eleusis").content.decode()
    assert 'name="game_type" value="eleusis"' in eleusis
    assert 'value="novice"' in eleusis
    assert 'value="heuristic"' not in eleusis
    assert 'name="seat_9"' in eleusis
    assert 'value="standard"' in eleusis


def test_a_new_eleusis_game_is_created_from_the_lobby_and_played_at_its_table(
    owner: Any,
) -> None:
    client = client_for(owner)
    response = client.post(
        "/games/new",
        {
            "game_type": "eleusis",
            "player_count": "4",
            "variant": "standard",
            "seat_1": "novice",
            "seat_2": "novice",
            "seat_3": "novice",
        },
    )
    assert response.status_code == 302, response.content[:500]
    game = Game.objects.get()
    assert (game.game_type, game.variant, game.status) == ("eleusis", "standard", "in_progress")
    for _ in range(200):
        server_steps(game)
        if game.status != GameStatus.IN_PROGRESS:
            break
        page = client.get(f"/games/{game.pk}/").content.decode()
        assert "New Eleusis, game" in page
        view = selectors.game_view(game=game, user=owner)
        for card in view["my_hand"] or []:
            assert card in page  # the seat's own hand is shown
        if view["phase"] == "turn":  # the hand's form: tick a card, play it
            card = view["my_hand"][0]
            assert f'name="cards" value="{card}"' in page
            data = {"do": "play", "cards": [card]}
        elif view["phase"] == "rule_setup":  # the editor's ready rules
            data = {"action": json.dumps({"type": "library_rule", "difficulty": "easy"})}
            assert "A ready rule, easy" in page
        else:  # every other explicit action is a button posting its JSON
            action = next(a for a in view["legal_actions"] if "template" not in a)
            button = json.dumps(action, separators=(",", ":"), sort_keys=True)
            assert button.replace('"', "&quot;") in page
            data = {"action": button}
        answer = client.post(
            f"/games/{game.pk}/act",
            {**data, "version": str(view["version"])},
            HTTP_HX_REQUEST="true",
        )
        assert answer.status_code == 200, answer.content[:300]
        game.refresh_from_db()
        if game.move_count > 12:
            break
    assert game.move_count > 12 or game.status == GameStatus.FINISHED


def test_the_rules_page_of_each_game(client: Client) -> None:
    assert "Rules of New Eleusis" in client.get("/rules/eleusis/").content.decode()
    assert client.get("/rules/indulgence/").status_code == 200
    assert client.get("/rules/").status_code == 200
    assert client.get("/rules/chess/").status_code == 404


def test_the_home_page_and_the_lobby_offer_every_hosted_game(
    client: Client, owner_client: Client
) -> None:
    for page in (client.get("/"), owner_client.get("/"), owner_client.get("/lobby/")):
        html = page.content.decode()
        for kind in kinds.hosted():
            assert f"Rules of {kind.meta.title}" in html
            assert f"Create a game of {kind.meta.title}" in html
        assert "Play New Eleusis now against 3 bots" in html
        assert "Novice bot" in html
        assert "Practice (V4: the house deals)" in html
        assert "3 to 10 players" in html
    signed_out = client.get("/").content.decode()
    assert 'href="/accounts/signup/?next=/play-now%3Fgame%3Deleusis"' in signed_out


def test_play_now_starts_the_game_a_newcomer_picks(owner: Any, owner_client: Client) -> None:
    response = owner_client.post("/play-now", {"game": "eleusis"})
    game = Game.objects.get()
    assert response["Location"] == f"/games/{game.pk}/"
    assert (game.game_type, game.variant, game.rated) == ("eleusis", "practice", False)
    assert [s.bot_kind or None for s in game.seats.order_by("number")] == [
        None,
        "novice",
        "novice",
        "novice",
    ]
    assert game.options["round_limit"] == 1
    assert owner_client.get("/play-now?game=eleusis").status_code == 200


def test_signing_up_to_play_new_eleusis_starts_it(client: Client) -> None:
    response = client.get("/play-now?game=eleusis")
    assert response["Location"] == "/accounts/signup/?next=/play-now%3Fgame%3Deleusis"
    page = client.get("/accounts/signup/", {"next": "/play-now?game=eleusis"}).content.decode()
    assert "Your game starts as soon as your account is created." in page
    assert "Play New Eleusis now against 3 bots" in page  # which game, as the button said
    response = client.post(
        "/accounts/signup/",
        {
            "username": "newcomer",
            "password1": "a-long-Passphrase-9",
            "password2": "a-long-Passphrase-9",
            "language": "en",
            "next": "/play-now?game=eleusis",
        },
    )
    game = Game.objects.get()
    assert response["Location"] == f"/games/{game.pk}/"
    assert game.game_type == "eleusis"


def test_the_create_form_takes_rounds_and_cards_per_hand(owner: Any) -> None:
    client = client_for(owner)
    page = client.get("/lobby/?game=eleusis").content.decode()
    assert 'name="round_limit"' in page
    assert 'name="hand_size"' in page
    assert 'name="round_limit"' not in client.get("/lobby/").content.decode()
    response = client.post(
        "/games/new",
        {
            "game_type": "eleusis",
            "player_count": "4",
            "variant": "practice",
            "round_limit": "1",
            "hand_size": "6",
            "seat_1": "novice",
            "seat_2": "novice",
            "seat_3": "novice",
        },
    )
    assert response.status_code == 302, response.content[:500]
    game = Game.objects.get()
    assert (game.options["round_limit"], game.options["hand_size"]) == (1, 6)
    # E43: a practice game needs its number of rounds: refused, with the engine's words.
    refused = client.post(
        "/games/new",
        {"game_type": "eleusis", "player_count": "4", "variant": "practice", "seat_1": "novice"},
    )
    assert refused.status_code == 400
    assert "round_limit" in refused.content.decode()


def test_the_rules_pages_link_each_other_in_english_and_japanese(client: Client) -> None:
    english = client.get("/rules/eleusis/").content.decode()
    assert "Proof that nobody cheated" in english
    assert "R17 Suits in order" in english
    assert 'href="/rules/"' in english
    assert 'href="/rules/eleusis/"' in client.get("/rules/").content.decode()
    client.cookies["django_language"] = "ja"
    japanese = client.get("/rules/eleusis/").content.decode()
    assert "ニュー・エレウシスのルール" in japanese
    assert "スートの順" in japanese or "スート" in japanese


def test_a_game_whose_pages_say_nothing_of_play_now_is_still_offered(
    owner: Any, owner_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A third game appears by adding its kind and pages: without ``PLAY_NOW`` its default
    variant, 4 seats and its first bot kind (``games.web.picker.play_now_plan``)."""
    monkeypatch.delattr(pages_eleusis, "PLAY_NOW")
    offered = {g["key"]: g for g in picker.games()}
    assert offered["eleusis"]["play_now"] == "Play New Eleusis now against 3 bots"
    owner_client.post("/play-now", {"game": "eleusis"})
    game = Game.objects.get()
    assert (game.game_type, game.variant, game.player_count) == ("eleusis", "standard", 4)
    assert {s.bot_kind for s in game.seats.exclude(number=0)} == {"novice"}
