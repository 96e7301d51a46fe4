"""The inbox on the site: the header's bell, the notifications page (newest first, unread
marked, a link to each game, mark one or all read), and the games waiting for my move
listed first in the lobby and on my profile."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client

from games import selectors, services
from games.models import Game, Notification, NotificationKind
from games.notifications import NotificationSpec, notifications_send
from tests.helpers import game_with_seed
from tests.web.conftest import client_for

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def notify(user: Any, kind: str, game: Game | None = None, **data: Any) -> Notification:
    [row] = notifications_send(
        [
            NotificationSpec(
                user_id=user.pk, kind=kind, title=f"English {kind}", game=game, data=data
            )
        ]
    )
    row.refresh_from_db()
    return row


def bell_count(html: str) -> str | None:
    bell = re.search(r'<a id="bell".*?</a>', html, re.S)
    assert bell, "the header has the bell"
    count = re.search(r'<span class="count">([^<]*)</span>', bell.group(0))
    return count.group(1) if count else None


@pytest.fixture
def game(owner: Any, opponent: Any, third: Any) -> Game:
    game = game_with_seed(creator=owner, player_count=3, rated=False, seed="inbox")
    services.game_join(game_id=game.pk, user=opponent)
    services.game_join(game_id=game.pk, user=third)
    game.refresh_from_db()
    return game


class TestBell:
    def test_the_header_shows_the_unread_count_to_a_signed_in_player(
        self, owner: Any, game: Game
    ) -> None:
        client = client_for(owner)
        before = Notification.objects.filter(user=owner, read_at__isnull=True).count()
        notify(owner, NotificationKind.PLAYER_JOINED, game, username="zed")
        html = client.get("/rules/").content.decode()
        assert bell_count(html) == str(before + 1)
        assert 'href="/notifications/"' in html
        assert "Notifications" in html
        assert "unread" in html

    def test_no_unread_no_number(self, owner: Any) -> None:
        html = client_for(owner).get("/rules/").content.decode()
        assert bell_count(html) is None

    def test_beyond_99_it_says_99_plus(self, owner: Any) -> None:
        for _ in range(101):
            notify(owner, NotificationKind.CHALLENGE, None, **{"from": "zed"})
        assert bell_count(client_for(owner).get("/rules/").content.decode()) == "99+"

    def test_visitors_have_no_bell(self, client: Client) -> None:
        assert 'id="bell"' not in client.get("/rules/").content.decode()

    def test_the_bell_alone_is_what_the_page_refreshes_live(self, owner: Any, game: Game) -> None:
        client = client_for(owner)
        note = notify(owner, NotificationKind.YOUR_TURN, game, seat=0)
        response = client.get("/notifications/bell", **HTMX)
        html = response.content.decode()
        assert response.status_code == 200
        assert html.startswith('<a id="bell"')
        assert 'data-url="/notifications/bell"' in html
        assert 'data-stream="/api/v1/stream"' in html
        assert f'data-latest="{note.pk}"' in html
        assert f'data-latest-text="Your turn in game {game.pk}."' in html
        assert f'data-latest-url="/games/{game.pk}/"' in html
        assert 'data-latest-turn="1"' in html
        assert "no-cache" in response["Cache-Control"]

    def test_signed_out_the_bell_answers_204_and_htmx_keeps_the_page(self, client: Client) -> None:
        assert client.get("/notifications/bell", **HTMX).status_code == 204


class TestNotificationsPage:
    def test_newest_first_unread_marked_each_with_a_link_to_its_game(
        self, owner: Any, game: Game
    ) -> None:
        Notification.objects.filter(user=owner).delete()
        old = notify(owner, NotificationKind.GAME_STARTED, game, seat=0)
        two_hours_ago = old.created_at - timedelta(hours=2)
        Notification.objects.filter(pk=old.pk).update(
            created_at=two_hours_ago, read_at=two_hours_ago
        )
        new = notify(owner, NotificationKind.YOUR_TURN, game, seat=0)
        html = client_for(owner).get("/notifications/").content.decode()
        assert "<h1>Notifications</h1>" in html
        turn = html.index(f"Your turn in game {game.pk}.")
        started = html.index(f"Game {game.pk} has started: every seat is taken.")
        assert turn < started, "newest first"
        item_new = html[html.index(f'id="n-{new.pk}"') :].split("</li>")[0]
        item_old = html[html.index(f'id="n-{old.pk}"') :].split("</li>")[0]
        assert "New" in item_new
        assert "Mark read" in item_new
        assert "New" not in item_old
        assert "Mark read" not in item_old
        assert f'<a href="/games/{game.pk}/">Open game {game.pk}</a>' in item_new
        assert "just now" in item_new
        assert "2\xa0hours ago" in item_old
        assert "1 unread notification." in html

    def test_every_kind_reads_as_a_sentence(self, owner: Any, game: Game) -> None:
        Notification.objects.filter(user=owner).delete()
        g = game.pk
        notify(owner, NotificationKind.REMINDER, game, seat=0)
        notify(owner, NotificationKind.PLAYER_JOINED, game, username="zed")
        notify(owner, NotificationKind.GAME_FINISHED, game, seat=0, result={"winner_seat": 0})
        notify(owner, NotificationKind.SEAT_HANDED_TO_BOT, game, seat=0)
        notify(owner, NotificationKind.AUTOPILOT_MOVE, game, seat=0)
        notify(owner, NotificationKind.CHALLENGE, game, **{"from": "zed"})
        notify(owner, NotificationKind.DISPUTE_UPDATE, game, event="upheld")
        html = client_for(owner).get("/notifications/").content.decode()
        for sentence in (
            f"Reminder: your time to move in game {g} is running out.",
            f"zed joined game {g}.",
            f"Game {g} is over: you won.",
            f"a bot now plays your seat in game {g}.",
            f"Your time ran out in game {g}: the autopilot moved for you.",
            f"zed challenges you to game {g}.",
            f"Game {g}: the dispute was upheld.",
        ):
            assert sentence in html

    def test_with_nothing_yet_it_says_what_will_come(self, owner: Any) -> None:
        html = client_for(owner).get("/notifications/").content.decode()
        assert "No notifications yet." in html
        assert "Mark all read" not in html

    def test_thirty_a_page_with_links_to_older_ones(self, owner: Any) -> None:
        for _ in range(31):
            notify(owner, NotificationKind.CHALLENGE, None, **{"from": "zed"})
        client = client_for(owner)
        first = client.get("/notifications/").content.decode()
        assert first.count('class="note') == 30
        assert "Page 1 of 2" in first
        assert 'href="/notifications/?page=2">Older' in first
        second = client.get("/notifications/?page=2").content.decode()
        assert second.count('class="note') == 1
        assert "Newer" in second

    def test_only_the_unread_ones(self, owner: Any, game: Game) -> None:
        read = notify(owner, NotificationKind.GAME_STARTED, game, seat=0)
        Notification.objects.filter(pk=read.pk).update(read_at=read.created_at)
        unread = notify(owner, NotificationKind.YOUR_TURN, game, seat=0)
        html = client_for(owner).get("/notifications/?unread=1").content.decode()
        assert f'id="n-{unread.pk}"' in html
        assert f'id="n-{read.pk}"' not in html
        assert "Show every notification" in html

    def test_signed_out_it_asks_to_log_in(self, client: Client) -> None:
        response = client.get("/notifications/")
        assert response.status_code == 302
        assert response["Location"] == "/accounts/login/?next=/notifications/"


class TestMarkRead:
    def test_one_without_javascript(self, owner: Any, game: Game) -> None:
        note = notify(owner, NotificationKind.YOUR_TURN, game, seat=0)
        response = client_for(owner).post(f"/notifications/{note.pk}/read", {"page": "1"})
        assert response.status_code == 302
        assert response["Location"] == "/notifications/?page=1"
        note.refresh_from_db()
        assert note.read_at is not None

    def test_one_with_htmx_returns_the_item_and_the_bell(self, owner: Any, game: Game) -> None:
        Notification.objects.filter(user=owner).update(read_at=None)
        unread = Notification.objects.filter(user=owner).count()
        note = notify(owner, NotificationKind.YOUR_TURN, game, seat=0)
        html = client_for(owner).post(f"/notifications/{note.pk}/read", **HTMX).content.decode()
        assert html.startswith(f'<li id="n-{note.pk}" class="note">')
        assert "Mark read" not in html.split("</li>")[0]
        assert 'hx-swap-oob="true"' in html
        assert bell_count(html) == (str(unread) if unread else None)

    def test_all_with_htmx_returns_the_list_and_an_empty_bell(self, owner: Any, game: Game) -> None:
        for _ in range(3):
            notify(owner, NotificationKind.YOUR_TURN, game, seat=0)
        response = client_for(owner).post("/notifications/read", **HTMX)
        html = response.content.decode()
        assert html.strip().startswith('<section id="inbox"')
        assert "0 unread notifications." in html
        assert bell_count(html) is None
        assert not Notification.objects.filter(user=owner, read_at__isnull=True).exists()

    def test_all_without_javascript(self, owner: Any, game: Game) -> None:
        notify(owner, NotificationKind.YOUR_TURN, game, seat=0)
        html = client_for(owner).post("/notifications/read", follow=True).content.decode()
        assert "Every notification is marked read." in html
        assert not Notification.objects.filter(user=owner, read_at__isnull=True).exists()

    def test_someone_elses_notification_is_not_found_and_stays_unread(
        self, owner: Any, opponent: Any, game: Game
    ) -> None:
        note = notify(opponent, NotificationKind.YOUR_TURN, game, seat=1)
        assert client_for(owner).post(f"/notifications/{note.pk}/read").status_code == 404
        note.refresh_from_db()
        assert note.read_at is None


class TestYourTurnFirst:
    def test_the_lobby_lists_the_games_waiting_for_my_move_first(
        self, owner: Any, opponent: Any, third: Any, game: Game
    ) -> None:
        me = game.seats.get(number=game.to_act_seat).player.user
        newer = services.game_create(creator=me, player_count=3, rated=False)  # open
        html = client_for(me).get("/lobby/").content.decode()
        my_games = html[html.index('id="my-games"') :]
        waiting = my_games.index(f">Game {game.pk}<")
        assert "Your turn" in my_games[waiting : my_games.index("</tr>", waiting)]
        assert waiting < my_games.index(f">Game {newer.pk}<"), "older, but my turn: first"

    def test_my_profile_starts_with_the_games_waiting_for_me_and_others_do_not_see_it(
        self, owner: Any, opponent: Any, third: Any, game: Game
    ) -> None:
        game.refresh_from_db()
        me = game.seats.get(number=game.to_act_seat).player.user
        mine = client_for(me).get(f"/players/{me.username}/").content.decode()
        section = mine[mine.index('id="your-turn-h"') :]
        assert f'<a href="/games/{game.pk}/">Game {game.pk}</a>' in section
        assert mine.index('id="your-turn-h"') < mine.index('id="ratings-h"')
        someone = next(u for u in (owner, opponent, third) if u != me)
        theirs = client_for(someone).get(f"/players/{me.username}/").content.decode()
        assert 'id="your-turn-h"' not in theirs


class TestSeenAtTheTable:
    def test_opening_the_table_marks_its_turn_notifications_read(self, game: Game) -> None:
        me = game.seats.get(number=game.to_act_seat).player.user
        note = notify(me, NotificationKind.YOUR_TURN, game, seat=game.to_act_seat)
        other = notify(me, NotificationKind.PLAYER_JOINED, game, username="zed")
        client = client_for(me)
        client.get(f"/games/{game.pk}/?since={game.version - 1}", **HTMX)  # live refresh
        note.refresh_from_db()
        assert note.read_at is None, "a live refresh is not opening the table"
        client.get(f"/games/{game.pk}/")
        note.refresh_from_db()
        other.refresh_from_db()
        assert note.read_at is not None
        assert other.read_at is None, "only its turn notifications"

    def test_playing_marks_them_read_too(self, game: Game) -> None:
        me = game.seats.get(number=game.to_act_seat).player.user
        Notification.objects.filter(user=me).update(read_at=None)
        view = selectors.game_view(game=game, user=me)
        client_for(me).post(
            f"/games/{game.pk}/act",
            {"action": json.dumps(view["legal_actions"][0]), "version": str(game.version)},
            **HTMX,
        )
        turn = Notification.objects.filter(user=me, game=game, kind=NotificationKind.YOUR_TURN)
        assert turn.exists()
        assert not turn.filter(read_at__isnull=True).exists()
