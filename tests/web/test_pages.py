"""Home, accounts, language, lobby, replay, leaderboard, rules and settings pages."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games import services
from games.models import ApiToken, Game, GameStatus, Player, Rating, Webhook
from tests.helpers import play_humans_until
from tests.web.conftest import client_for

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


class TestHome:
    def test_it_says_what_the_game_is_and_offers_to_play(self, owner_client: Client) -> None:
        html = owner_client.get("/").content.decode()
        assert "trick-taking card game" in html
        assert "Play now against 3 bots" in html

    def test_anonymous_visitors_are_invited_to_sign_up(self, client: Client) -> None:
        html = client.get("/").content.decode()
        assert 'href="/accounts/signup/"' in html

    def test_play_now_starts_a_game_against_three_bots(
        self, owner_client: Client, owner: Any
    ) -> None:
        response = owner_client.post("/play-now")
        game = Game.objects.get()
        assert response.status_code == 302
        assert response["Location"] == f"/games/{game.pk}/"
        assert game.player_count == 4
        assert game.status in (GameStatus.IN_PROGRESS, GameStatus.FINISHED)
        assert [s.player.is_bot for s in game.seats.order_by("number")] == [
            False,
            True,
            True,
            True,
        ]

    def test_signed_out_the_play_now_button_leads_to_sign_up_with_next(
        self, client: Client
    ) -> None:
        html = client.get("/").content.decode()
        assert "Play now against 3 bots" in html
        assert '<form method="get" action="/accounts/signup/">' in html
        assert '<input type="hidden" name="next" value="/play-now">' in html
        assert 'href="/accounts/login/?next=/play-now"' in html
        page = client.get("/accounts/signup/", {"next": "/play-now"}).content.decode()
        assert '<input type="hidden" name="next" value="/play-now">' in page
        assert "Your game starts as soon as your account is created." in page
        assert "Play Indulgence now against 3 bots" in page

    def test_signing_up_from_the_button_starts_the_game_and_lands_on_its_table(
        self, client: Client
    ) -> None:
        response = client.post(
            "/accounts/signup/",
            {
                "username": "eager",
                "password1": "a-long-Passphrase-9",
                "password2": "a-long-Passphrase-9",
                "language": "en",
                "next": "/play-now",
            },
        )
        game = Game.objects.get()
        assert response.status_code == 302
        assert response["Location"] == f"/games/{game.pk}/"
        seats = list(game.seats.order_by("number").select_related("player__user"))
        assert seats[0].player.user.username == "eager"
        assert [s.player.is_bot for s in seats] == [False, True, True, True]
        assert not game.rated
        table = client.get(response["Location"])
        assert table.status_code == 200
        assert 'id="table"' in table.content.decode()

    def test_sign_up_never_follows_a_next_to_another_site(self, client: Client) -> None:
        response = client.post(
            "/accounts/signup/",
            {
                "username": "careful",
                "password1": "a-long-Passphrase-9",
                "password2": "a-long-Passphrase-9",
                "language": "en",
                "next": "https://evil.example/",
            },
        )
        assert response["Location"] == "/lobby/"
        assert not Game.objects.exists()

    @pytest.mark.parametrize("method", ["get", "post"])
    def test_play_now_signed_out_sends_to_sign_up_and_creates_nothing(
        self, client: Client, method: str
    ) -> None:
        response = getattr(client, method)("/play-now")
        assert response.status_code == 302
        assert response["Location"] == "/accounts/signup/?next=/play-now"
        htmx = getattr(client, method)("/play-now", **HTMX)
        assert htmx["HX-Redirect"] == "/accounts/signup/?next=/play-now"
        assert not Game.objects.exists()

    def test_after_log_in_the_get_only_offers_the_button_and_the_post_needs_csrf(
        self, owner: Any
    ) -> None:
        client = Client(enforce_csrf_checks=True)
        login = client.get("/accounts/login/?next=/play-now").content.decode()
        assert 'href="/accounts/signup/?next=/play-now"' in login
        client.force_login(owner)
        page = client.get("/play-now")
        html = page.content.decode()
        assert page.status_code == 200
        assert '<form method="post" action="/play-now">' in html
        assert 'name="csrfmiddlewaretoken"' in html
        assert not Game.objects.exists()  # a GET creates nothing
        assert client.post("/play-now").status_code == 403  # no CSRF token
        assert not Game.objects.exists()
        token = html.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
        response = client.post("/play-now", {"csrfmiddlewaretoken": token})
        assert response["Location"] == f"/games/{Game.objects.get().pk}/"


class TestAccounts:
    def test_signing_up_creates_the_account_and_its_player_and_logs_in(
        self, client: Client
    ) -> None:
        response = client.post(
            "/accounts/signup/",
            {
                "username": "newcomer",
                "password1": "a-long-Passphrase-9",
                "password2": "a-long-Passphrase-9",
                "language": "ja",
            },
        )
        assert response.status_code == 302
        assert response["Location"] == "/lobby/"
        user = get_user_model().objects.get(username="newcomer")
        assert Player.objects.get(user=user).language == "ja"
        lobby = client.get("/lobby/").content.decode()
        assert "ロビー" in lobby

    def test_a_taken_username_is_refused(self, client: Client, owner: Any) -> None:
        response = client.post(
            "/accounts/signup/",
            {
                "username": "owner",
                "password1": "a-long-Passphrase-9",
                "password2": "a-long-Passphrase-9",
                "language": "en",
            },
        )
        assert response.status_code == 200
        assert "already exists" in response.content.decode()

    def test_the_login_page_has_a_form(self, client: Client) -> None:
        html = client.get("/accounts/login/").content.decode()
        assert 'name="username"' in html
        assert 'name="password"' in html


class TestLanguage:
    def test_accept_language_japanese_gives_the_japanese_game_terms(
        self, client: Client, three_humans: Game
    ) -> None:
        html = client.get(f"/games/{three_humans.pk}/", HTTP_ACCEPT_LANGUAGE="ja").content
        text = html.decode()
        assert '<html lang="ja">' in text
        assert "君主" in text
        assert "勅令" in text
        assert "フロリン" in text
        assert "取るべからず" in text

    def test_the_switch_sets_a_cookie_for_anonymous_visitors(self, client: Client) -> None:
        response = client.post("/language", {"language": "ja", "next": "/rules/"})
        assert response.status_code == 302
        assert response["Location"] == "/rules/"
        html = client.get("/rules/").content.decode()
        assert "インダルジェンスのルール" in html
        assert "贖宥の指輪" in html
        assert "教皇勅書" in html

    def test_the_switch_is_remembered_on_the_player(self, owner_client: Client, owner: Any) -> None:
        owner_client.post("/language", {"language": "ja", "next": "/"})
        assert Player.objects.get(user=owner).language == "ja"
        fresh = client_for(owner)  # a new browser: no cookie, the saved choice wins
        assert "ロビー" in fresh.get("/lobby/", HTTP_ACCEPT_LANGUAGE="en").content.decode()

    def test_an_unknown_language_is_refused(self, client: Client) -> None:
        assert client.post("/language", {"language": "xx"}).status_code == 400

    def test_the_switch_does_not_redirect_off_site(self, client: Client) -> None:
        response = client.post("/language", {"language": "en", "next": "https://evil.example/"})
        assert response["Location"] == "/"


class TestLobby:
    def test_it_lists_my_games_with_whose_turn_it_is(
        self, three_humans: Game, owner: Any, opponent: Any, third: Any
    ) -> None:
        to_act = {0: owner, 1: opponent, 2: third}[three_humans.to_act_seat]  # type: ignore[index]
        html = client_for(to_act).get("/lobby/").content.decode()
        assert f'href="/games/{three_humans.pk}/"' in html
        assert '<tr class="my-turn">' in html
        assert "<strong>Your turn</strong>" in html

    def test_it_lists_open_games_to_join(self, owner: Any, outsider: Any) -> None:
        game = services.game_create(creator=owner, player_count=4)
        html = client_for(outsider).get("/lobby/").content.decode()
        assert f'action="/games/{game.pk}/join"' in html

    def test_an_htmx_request_gets_the_lists_only(self, owner_client: Client) -> None:
        html = owner_client.get("/lobby/", **HTMX).content.decode()
        assert html.lstrip().startswith('<div id="lists"')
        assert "<html" not in html

    def test_creating_a_game_with_bots_takes_me_to_its_table(self, owner_client: Client) -> None:
        response = owner_client.post(
            "/games/new",
            {
                "player_count": "3",
                "variant": "expert",
                "turn_timeout_seconds": "3600",
                "seat_1": "random",
                "seat_2": "",
                "rated": "on",
            },
        )
        game = Game.objects.get()
        assert response.status_code == 302
        assert response["Location"] == f"/games/{game.pk}/"
        assert (game.player_count, game.variant, game.rated) == (3, "expert", True)
        assert game.turn_timeout_seconds == 3600
        assert game.status == GameStatus.OPEN
        assert game.seats.count() == 2

    def test_an_htmx_create_redirects_the_page(self, owner_client: Client) -> None:
        response = owner_client.post(
            "/games/new",
            {
                "player_count": "4",
                "variant": "basic",
                "seat_1": "random",
                "seat_2": "random",
                "seat_3": "random",
            },
            **HTMX,
        )
        assert response["HX-Redirect"] == f"/games/{Game.objects.get().pk}/"

    def test_an_invalid_game_is_refused_with_the_form_again(self, owner_client: Client) -> None:
        response = owner_client.post("/games/new", {"player_count": "5"}, **HTMX)
        assert response.status_code == 400
        html = response.content.decode()
        assert html.lstrip().startswith('<section id="create"')
        assert "errorlist" in html
        assert not Game.objects.exists()

    def test_without_javascript_an_invalid_game_shows_the_whole_lobby_again(
        self, owner_client: Client
    ) -> None:
        response = owner_client.post("/games/new", {"player_count": "3", "variant": "chaos"})
        assert response.status_code == 400
        html = response.content.decode()
        assert html.startswith("<!doctype html>")
        assert "errorlist" in html

    def test_joining_a_full_game_says_why(self, three_humans: Game, outsider: Any) -> None:
        client = client_for(outsider)
        response = client.post(f"/games/{three_humans.pk}/join")
        assert response.status_code == 302
        page = client.get(response["Location"]).content.decode()
        assert "Every seat at this game is taken." in page


class TestReplay:
    def test_a_finished_game_stops_polling_and_can_be_stepped_through_with_every_hand_shown(
        self, three_humans: Game, owner: Any, opponent: Any, third: Any, outsider: Any
    ) -> None:
        game = play_humans_until(three_humans, {0: owner, 1: opponent, 2: third})
        assert game.status == GameStatus.FINISHED
        polled = client_for(owner).get(f"/games/{game.pk}/?since={game.version}", **HTMX)
        assert polled.status_code == 286  # htmx stops polling
        final = polled.content.decode()
        assert "indulgence:poll" not in final  # the final table polls no more
        assert "Game over" in final
        assert "Replay this game move by move" in final
        behind = client_for(owner).get(f"/games/{game.pk}/?since={game.version - 3}", **HTMX)
        assert behind.status_code == 286  # a poller that missed the last moves stops too
        assert "Game over" in behind.content.decode()
        client = client_for(outsider)
        start = client.get(f"/games/{game.pk}/replay?move=0").content.decode()
        assert "Every hand, revealed" in start
        assert start.count('role="img"') >= 36  # all three 12-card hands are drawn
        total = game.moves.count()
        assert f"Move 0 of {total}" in start
        step = client.get(f"/games/{game.pk}/replay?move=1", **HTMX).content.decode()
        assert step.lstrip().startswith('<section id="board"')
        assert "chose the edict" in step
        end = client.get(f"/games/{game.pk}/replay?move={total}").content.decode()
        assert f"The seed of this game was {game.seed}." in end

    def test_a_game_in_progress_cannot_be_replayed(
        self, three_humans: Game, owner_client: Client
    ) -> None:
        response = owner_client.get(f"/games/{three_humans.pk}/replay")
        assert response.status_code == 409
        assert "published when the game has finished" in response.content.decode()


class TestLeaderboardAndRules:
    def test_the_leaderboard_ranks_rated_players(
        self, owner: Any, opponent: Any, third: Any, client: Client
    ) -> None:
        # Ratings as services._ratings_update leaves them after rated games (read-only page).
        for user, mu in ((opponent, 30.0), (owner, 27.0), (third, 24.0)):
            Rating.objects.create(
                player=user.player, variant="basic", player_count=3, mu=mu, sigma=2.0, games=4
            )
        html = client.get("/leaderboard/?variant=basic&player_count=3").content.decode()
        rows = [
            html.index(f'<td><a href="/players/{name}/">{name}</a>')
            for name in ("opponent", "owner", "third")
        ]
        assert rows == sorted(rows)
        assert "<td>24.0</td>" in html  # opponent: 30 - 3 * 2
        partial = client.get("/leaderboard/?variant=basic&player_count=4", **HTMX).content
        assert b"No rated game has been finished in this pool yet." in partial

    def test_the_rules_list_every_edict(self, client: Client) -> None:
        html = client.get("/rules/").content.decode().replace("&#x27;", "'")
        assert "Don't take the most of any family" in html
        assert "The rules of Indulgence" in html


class TestSettings:
    def test_settings_need_an_account(self, client: Client) -> None:
        response = client.get("/settings/")
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/")

    def test_notification_preferences_and_quiet_hours_are_saved(
        self, owner_client: Client, owner: Any
    ) -> None:
        response = owner_client.post(
            "/settings/",
            {
                "form": "notifications",
                "email_your_turn": "on",
                "quiet_start": "22:00",
                "quiet_end": "07:30",
                "quiet_timezone": "Asia/Tokyo",
            },
        )
        assert response.status_code == 302
        prefs = Player.objects.get(user=owner).notification_preferences
        assert prefs["email_your_turn"] is True
        assert prefs["email_reminder"] is False
        assert prefs["email_game_finished"] is False
        assert prefs["quiet_hours"] == {"start": "22:00", "end": "07:30", "timezone": "Asia/Tokyo"}
        page = owner_client.get("/settings/").content.decode()
        assert 'value="Asia/Tokyo"' in page

    def test_a_bad_time_zone_is_refused_in_the_form(self, owner_client: Client) -> None:
        response = owner_client.post(
            "/settings/",
            {
                "form": "notifications",
                "quiet_start": "22:00",
                "quiet_end": "07:00",
                "quiet_timezone": "Mars/Olympus",
            },
        )
        assert response.status_code == 200
        assert "Unknown time zone" in response.content.decode()

    def test_a_webhook_is_added_with_its_secret_shown_once_and_can_be_deleted(
        self, owner_client: Client, owner: Any
    ) -> None:
        response = owner_client.post(
            "/settings/",
            {"form": "webhook", "url": "https://bots.example.com/hook", "kinds": ["your_turn"]},
            **HTMX,
        )
        html = response.content.decode()
        assert html.lstrip().startswith('<section id="webhooks"')
        webhook = Webhook.objects.get(user=owner)
        assert webhook.kinds == ["your_turn"]
        assert f'<code id="new-secret">{webhook.secret}</code>' in html
        assert webhook.secret not in owner_client.get("/settings/").content.decode()
        deleted = owner_client.post(
            "/settings/", {"form": "webhook_delete", "webhook": str(webhook.pk)}
        )
        assert deleted.status_code == 302
        assert not Webhook.objects.filter(user=owner).exists()

    def test_a_new_token_is_shown_once_then_only_its_prefix(
        self, owner_client: Client, owner: Any
    ) -> None:
        response = owner_client.post(
            "/settings/", {"form": "token", "name": "my bot", "play": "on"}, **HTMX
        )
        html = response.content.decode()
        assert html.lstrip().startswith('<section id="tokens"')
        token = ApiToken.objects.get(user=owner)
        start = html.index('<code id="new-token">') + len('<code id="new-token">')
        clear = html[start : html.index("</code>", start)]
        assert services.token_authenticate(raw=clear) == token
        again = owner_client.get("/settings/").content.decode()
        assert clear not in again
        assert token.prefix in again

    def test_a_token_can_be_revoked(self, owner_client: Client, owner: Any) -> None:
        token, _raw = services.token_issue(user=owner, name="old")
        response = owner_client.post("/settings/", {"form": "revoke", "token": str(token.pk)})
        assert response.status_code == 302
        token.refresh_from_db()
        assert token.revoked_at is not None

    def test_someone_elses_token_cannot_be_revoked(
        self, owner_client: Client, outsider: Any
    ) -> None:
        token, _raw = services.token_issue(user=outsider)
        owner_client.post("/settings/", {"form": "revoke", "token": str(token.pk)})
        token.refresh_from_db()
        assert token.revoked_at is None
