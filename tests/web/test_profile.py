"""The profile page: public ratings and recent games, display name edited by its owner."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.models import Game, Player, Rating
from tests.api.support import finished_game
from tests.web.conftest import client_for

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def finished(owner: Any, opponent: Any, third: Any) -> Game:
    """A finished game of the owner (a seed that ends early: about 30 moves, not 200)."""
    return finished_game(owner, opponent, third)


@pytest.fixture
def rated_owner(owner: Any, finished: Game) -> Any:
    """The owner with one rating and one finished game (plus the private data a profile
    must not show)."""
    owner.email = "owner-private@example.com"
    owner.save()
    player = Player.objects.get(user=owner)
    Rating.objects.create(
        player=player, variant="basic", player_count=4, mu=31.5, sigma=5.0, games=7
    )
    return owner


class TestProfilePage:
    def test_the_owner_sees_ratings_recent_games_and_the_name_form(
        self, rated_owner: Any, finished: Game
    ) -> None:
        response = client_for(rated_owner).get("/players/owner/")
        html = response.content.decode()
        assert response.status_code == 200
        assert html.strip().startswith("<!doctype html>")
        assert "<td>Basic</td><td>4</td><td>16.5</td>" in html  # 31.5 - 3 * 5.0
        assert "<td>7</td>" in html
        assert f'href="/games/{finished.pk}/replay"' in html  # finished: the replay
        assert "Game over" not in html
        assert 'name="display_name"' in html
        assert 'hx-post="/players/owner/"' in html
        assert 'href="/players/owner/"' in html  # the header's Profile link

    def test_others_see_it_without_private_data_and_without_the_form(
        self, rated_owner: Any, outsider: Any, client: Client
    ) -> None:
        for viewer in (client_for(outsider), client):
            page = viewer.get("/players/owner/").content.decode()
            html = page[page.index('<main id="main">') :]  # not the viewer's own header bell
            assert "16.5" in html
            assert "Recent games" in html
            assert 'name="display_name"' not in html
            assert "owner-private@example.com" not in html
            assert "API token" not in html
            assert "Webhook" not in html
            assert "Notifications" not in html

    def test_an_htmx_request_gets_the_partial(self, rated_owner: Any) -> None:
        response = client_for(rated_owner).get("/players/owner/", **HTMX)
        html = response.content.decode()
        assert html.strip().startswith('<div id="profile">')
        assert "<html" not in html
        assert "16.5" in html

    def test_the_japanese_page(self, rated_owner: Any, client: Client) -> None:
        html = client.get("/players/owner/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
        assert '<html lang="ja">' in html
        assert "レーティング" in html
        assert "最近のゲーム" in html
        assert "ベーシック" in html or "基本" in html
        assert "Recent games" not in html
        partial = client.get("/players/owner/", HTTP_ACCEPT_LANGUAGE="ja", **HTMX)
        assert "最近のゲーム" in partial.content.decode()
        assert "<html" not in partial.content.decode()

    def test_an_unknown_player_is_404(self, client: Client) -> None:
        assert client.get("/players/nobody-at-all/").status_code == 404

    def test_the_leaderboard_links_to_profiles(self, rated_owner: Any, client: Client) -> None:
        html = client.get("/leaderboard/").content.decode()
        assert '<a href="/players/owner/">owner</a>' in html


class TestDisplayName:
    def test_the_owner_changes_it_with_a_plain_post(self, owner: Any) -> None:
        client = client_for(owner)
        response = client.post("/players/owner/", {"display_name": "  Lady   Owner "})
        assert response.status_code == 302
        assert response["Location"] == "/players/owner/"
        assert Player.objects.get(user=owner).display_name == "Lady Owner"
        assert "Your display name was saved." in client.get("/players/owner/").content.decode()

    def test_the_owner_changes_it_with_htmx_and_gets_the_name_partial(
        self, owner: Any, three_humans: Game
    ) -> None:
        client = client_for(owner)
        response = client.post("/players/owner/", {"display_name": "Ruler Owner"}, **HTMX)
        html = response.content.decode()
        assert response.status_code == 200
        assert html.strip().startswith('<section id="name"')
        assert "Ruler Owner" in html
        assert "Your display name was saved." in html
        table = client.get(f"/games/{three_humans.pk}/").content.decode()
        assert "Ruler Owner" in table

    def test_an_empty_name_falls_back_to_the_username(self, owner: Any) -> None:
        client_for(owner).post("/players/owner/", {"display_name": "Someone"})
        client_for(owner).post("/players/owner/", {"display_name": ""})
        assert Player.objects.get(user=owner).display_name == "owner"

    def test_a_too_long_name_is_refused(self, owner: Any) -> None:
        response = client_for(owner).post("/players/owner/", {"display_name": "x" * 65}, **HTMX)
        assert "errorlist" in response.content.decode()
        assert Player.objects.get(user=owner).display_name == "owner"

    def test_nobody_else_may_change_it(self, owner: Any, outsider: Any, client: Client) -> None:
        assert (
            client_for(outsider).post("/players/owner/", {"display_name": "pwned"}).status_code
            == 403
        )
        assert client.post("/players/owner/", {"display_name": "pwned"}).status_code == 403
        assert Player.objects.get(user=owner).display_name == "owner"
