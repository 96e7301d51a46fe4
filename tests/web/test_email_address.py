"""The email address: optional at sign-up, added or changed in the settings, confirmed by a
signed link that expires, and the only address anything but that link is sent to."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail, signing
from django.test import Client

from games import announce, email_addresses, services
from games.models import EmailStatus, Notification, NotificationKind, Player
from games.web import account_email
from tests.helpers import game_with_seed, play_humans_until
from tests.web.conftest import client_for

pytestmark = pytest.mark.django_db(transaction=True)  # mail is queued after commit

HTMX = {"HTTP_HX_REQUEST": "true"}
PASSWORD = "a-long-Passphrase-9"
LINK = re.compile(r"http://testserver(/accounts/email/confirm/[^/\s]+)")


def sign_up(client: Client, username: str, email: str = "", **extra: str) -> Any:
    data = {
        "username": username,
        "password1": PASSWORD,
        "password2": PASSWORD,
        "language": "en",
        "email": email,
        **extra,
    }
    return client.post("/accounts/signup/", data, follow=True)


def mails_to(address: str) -> list[Any]:
    return [m for m in mail.outbox if address in m.to]


def confirm_path(message: Any) -> str:
    match = LINK.search(message.body)
    assert match, message.body
    return match.group(1)


def player(username: str) -> Player:
    return Player.objects.select_related("user").get(user__username=username)


class TestSignUp:
    def test_the_form_asks_for_an_optional_address_and_says_what_it_is_for(
        self, client: Client
    ) -> None:
        html = client.get("/accounts/signup/").content.decode()
        assert "Email address (optional)" in html
        assert "when it is your turn and to reset a forgotten password" in html
        assert "nothing else until you follow it" in html
        assert "Other players never see it." in html

    def test_an_address_given_at_sign_up_gets_one_message_and_waits_for_its_confirmation(
        self, client: Client
    ) -> None:
        page = sign_up(client, "ada", "Ada@Example.ORG").content.decode()
        ada = player("ada")
        assert ada.user.email == ""  # not confirmed: nothing else goes there
        assert ada.email_pending == "Ada@example.org"
        assert [m.subject for m in mail.outbox] == [
            "Confirm your email address for Indulgence Online"
        ]
        assert mail.outbox[0].to == ["Ada@example.org"]
        assert "/accounts/email/confirm/" in mail.outbox[0].body
        assert "The link works for 48 hours." in mail.outbox[0].body
        assert "We sent a link to Ada@example.org." in page

    def test_without_an_address_no_message_is_sent(self, client: Client) -> None:
        sign_up(client, "bea")
        assert mail.outbox == []
        assert player("bea").email_pending == ""

    def test_a_japanese_player_gets_the_message_in_japanese(self, client: Client) -> None:
        sign_up(client, "kenji", "kenji@example.org", language="ja")
        assert mail.outbox[0].subject == "Indulgence Online のメールアドレスを確認してください"
        assert "リンク" in mail.outbox[0].body

    def test_an_address_asked_for_too_often_is_refused_and_no_account_is_made(
        self, client: Client, settings: Any
    ) -> None:
        settings.MAIL_RATE_LIMITS = {**settings.MAIL_RATE_LIMITS, "email_confirm_account": "1/hour"}
        sign_up(client, "first", "shared@example.org")
        html = sign_up(Client(), "second", "shared@example.org").content.decode()
        assert "Too many confirmation messages were asked for" in html
        assert not get_user_model().objects.filter(username="second").exists()
        assert len(mails_to("shared@example.org")) == 1


class TestTheLink:
    def test_opening_it_changes_nothing_and_its_button_confirms_the_address(
        self, client: Client
    ) -> None:
        sign_up(client, "ada", "ada@example.org")
        path = confirm_path(mail.outbox[0])
        anonymous = Client()  # a mail scanner, or the person on another device
        page = anonymous.get(path).content.decode()
        assert "Confirm your email address" in page
        assert "Use ada@example.org for the account ada" in page
        assert "Confirm this address" in page
        assert player("ada").user.email == ""
        done = anonymous.post(path).content.decode()
        assert "Your email address is confirmed" in done
        ada = player("ada")
        assert (ada.user.email, ada.email_pending) == ("ada@example.org", "")

    def test_a_tampered_link_confirms_nothing(self, client: Client) -> None:
        sign_up(client, "ada", "ada@example.org")
        path = confirm_path(mail.outbox[0])
        token = path.rsplit("/", 1)[1]
        flipped = token[:-1] + ("A" if token[-1] != "A" else "B")
        for forged in (flipped, token[:-5], "not-a-token", token.replace(":", ".", 1)):
            response = Client().post(f"/accounts/email/confirm/{forged}")
            assert response.status_code == 400, forged
            assert "This confirmation link is not valid" in response.content.decode()
        assert player("ada").user.email == ""

    def test_a_token_signed_for_something_else_confirms_nothing(self, client: Client) -> None:
        sign_up(client, "ada", "ada@example.org")
        ada = player("ada")
        other = signing.dumps(
            {"u": ada.user.pk, "a": "x"}, salt="indulgence.notifications.unsubscribe"
        )
        assert Client().post(f"/accounts/email/confirm/{other}").status_code == 400
        assert player("ada").user.email == ""

    def test_a_link_older_than_two_days_has_expired(self, client: Client, monkeypatch: Any) -> None:
        sign_up(client, "ada", "ada@example.org")
        ada = player("ada")
        sent_at = time.time() - 2 * 24 * 3600 - 5
        monkeypatch.setattr(signing.time, "time", lambda: sent_at)
        old = email_addresses.confirmation_token(user_id=ada.user.pk, address="ada@example.org")
        monkeypatch.undo()
        response = Client().post(f"/accounts/email/confirm/{old}")
        assert response.status_code == 400
        assert "This confirmation link has expired" in response.content.decode()
        assert player("ada").user.email == ""
        # The one in the message (just sent) still works.
        Client().post(confirm_path(mail.outbox[0]))
        assert player("ada").user.email == "ada@example.org"

    def test_a_link_just_under_two_days_old_still_works(
        self, client: Client, monkeypatch: Any
    ) -> None:
        sign_up(client, "ada", "ada@example.org")
        ada = player("ada")
        sent_at = time.time() - 2 * 24 * 3600 + 60
        monkeypatch.setattr(signing.time, "time", lambda: sent_at)
        token = email_addresses.confirmation_token(user_id=ada.user.pk, address="ada@example.org")
        monkeypatch.undo()
        Client().post(f"/accounts/email/confirm/{token}")
        assert player("ada").user.email == "ada@example.org"

    def test_a_link_to_an_address_given_up_since_confirms_nothing(self, client: Client) -> None:
        sign_up(client, "ada", "typo@example.org")
        client.post("/settings/email", {"form": "give", "email": "ada@example.org"})
        old, new = (confirm_path(m) for m in mail.outbox)
        response = Client().post(old)
        assert response.status_code == 400
        assert "no longer waiting for confirmation" in response.content.decode()
        assert player("ada").user.email == ""
        Client().post(new)
        assert player("ada").user.email == "ada@example.org"

    def test_a_link_used_twice_says_the_address_is_confirmed_already(self, client: Client) -> None:
        sign_up(client, "ada", "ada@example.org")
        path = confirm_path(mail.outbox[0])
        Client().post(path)
        again = Client().get(path)
        assert again.status_code == 200
        assert "This address is confirmed already." in again.content.decode()


class TestSettings:
    def test_without_an_address_the_settings_say_no_email_is_sent(self, client: Client) -> None:
        sign_up(client, "bea")
        html = client.get("/settings/").content.decode()
        assert "You have no confirmed email address" in html
        assert "No email is sent until you have a confirmed address" in html
        assert "Add the address" in html

    def test_adding_an_address_sends_the_link_and_shows_it_waiting(self, client: Client) -> None:
        sign_up(client, "bea")
        response = client.post("/settings/email", {"form": "give", "email": "bea@example.org"})
        assert response.status_code == 302
        assert response["Location"] == "/settings/#email"
        html = client.get("/settings/").content.decode()
        assert "We sent a link to bea@example.org." in html
        assert "Waiting for confirmation: <strong>bea@example.org</strong>" in html
        assert "Send the link again" in html
        assert [m.to for m in mail.outbox] == [["bea@example.org"]]

    def test_with_htmx_the_section_comes_back_alone(self, client: Client) -> None:
        sign_up(client, "bea")
        response = client.post(
            "/settings/email", {"form": "give", "email": "bea@example.org"}, **HTMX
        )
        html = response.content.decode()
        assert response.status_code == 200
        assert html.strip().startswith('<section id="email"')
        assert "<html" not in html
        assert "We sent a link to bea@example.org." in html
        assert "Waiting for confirmation" in html

    def test_a_malformed_address_is_refused_with_a_reason(self, client: Client) -> None:
        sign_up(client, "bea")
        response = client.post("/settings/email", {"form": "give", "email": "not an address"})
        assert response.status_code == 400
        assert "Enter a valid email address." in response.content.decode()
        assert mail.outbox == []

    def test_mail_keeps_going_to_the_confirmed_address_until_the_new_one_is_confirmed(
        self, make_user: Any, opponent: Any, third: Any
    ) -> None:
        owner = make_user("owner", email="old@example.org")
        client = client_for(owner)
        client.post("/settings/email", {"form": "give", "email": "new@example.org"})
        html = client.get("/settings/").content.decode()
        assert "Your address is <strong>old@example.org</strong> (confirmed)" in html
        assert "Waiting for confirmation: <strong>new@example.org</strong>" in html
        game = game_with_seed(creator=owner, player_count=3, rated=False, seed="old-new")
        services.game_join(game_id=game.pk, user=opponent)
        services.game_join(game_id=game.pk, user=third)
        play_humans_until(game, {0: owner, 1: opponent, 2: third}, stop_seat=0)
        assert mails_to("old@example.org"), "the your-turn email goes to the confirmed address"
        assert [m.subject for m in mails_to("new@example.org")] == [
            "Confirm your email address for Indulgence Online"
        ]
        Client().post(confirm_path(mails_to("new@example.org")[0]))
        before = len(mails_to("old@example.org"))
        play_humans_until(game, {0: owner, 1: opponent, 2: third})  # to the end
        assert len(mails_to("old@example.org")) == before
        assert len(mails_to("new@example.org")) > 1

    def test_the_link_can_be_sent_again_a_few_times_then_must_wait(self, client: Client) -> None:
        sign_up(client, "bea", "bea@example.org")  # message 1 of 3 per hour
        for _ in range(2):
            assert client.post("/settings/email", {"form": "resend"}).status_code == 302
        refused = client.post("/settings/email", {"form": "resend"}, **HTMX)
        assert refused.status_code == 429
        # The hourly window ends on the hour: in an hour's last minute the wait is
        # "1 minute" (failed CI at 13:59:20, with "\d+ minutes" asked for).
        assert re.search(
            r"Too many confirmation messages were asked for: please wait \d+ minutes? "
            r"and try again\.",
            refused.content.decode(),
        )
        assert len(mails_to("bea@example.org")) == 3

    def test_the_wait_is_said_in_whole_minutes_rounded_up(self) -> None:
        said = "Too many confirmation messages were asked for: please wait {} and try again."
        assert account_email.wait_text(40.0) == said.format("1 minute")
        assert account_email.wait_text(61.0) == said.format("2 minutes")
        assert account_email.wait_text(3600.0) == said.format("60 minutes")

    def test_removing_the_address_stops_every_email(
        self, make_user: Any, opponent: Any, third: Any
    ) -> None:
        owner = make_user("owner", email="owner@example.org")
        client = client_for(owner)
        html = client.post("/settings/email", {"form": "remove"}, follow=True).content.decode()
        assert "Your email address was removed" in html
        assert get_user_model().objects.get(pk=owner.pk).email == ""
        game = game_with_seed(creator=owner, player_count=3, rated=False, seed="removed")
        services.game_join(game_id=game.pk, user=opponent)
        services.game_join(game_id=game.pk, user=third)
        play_humans_until(game, {0: owner, 1: opponent, 2: third})
        assert mails_to("owner@example.org") == []

    def test_the_form_inside_the_settings_page_posts_with_its_csrf_token(
        self, make_user: Any
    ) -> None:
        client = Client(enforce_csrf_checks=True)
        client.force_login(make_user("bea"))
        html = client.get("/settings/").content.decode()
        section = html[html.index('<section id="email"') :]
        section = section[: section.index("</section>")]
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', section)
        assert token, section
        data = {"form": "give", "email": "bea@example.org"}
        assert client.post("/settings/email", data).status_code == 403
        data["csrfmiddlewaretoken"] = token.group(1)
        assert client.post("/settings/email", data).status_code == 302
        assert player("bea").email_pending == "bea@example.org"

    def test_signed_out_the_email_page_asks_to_log_in(self, client: Client) -> None:
        response = client.post("/settings/email", {"form": "give", "email": "x@example.org"})
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/")
        assert mail.outbox == []


def test_nothing_but_the_confirmation_goes_to_an_address_not_confirmed(
    client: Client, make_user: Any
) -> None:
    """Every kind of mail the site sends, for an account whose only address waits for its
    confirmation: a challenge, game started, your turn, a reminder, a dispute, the end of
    the game, a seat handed to a bot, and a password reset asked for that address."""
    sign_up(client, "pending", "pending@example.org")
    pending = get_user_model().objects.get(username="pending")
    rival = make_user("rival", email="rival@example.org")
    other = make_user("other", email="other@example.org")
    game = services.game_create(
        creator=rival, player_count=3, rated=False, invite=["pending"], turn_timeout_seconds=300
    )
    services.game_join(game_id=game.pk, user=pending)
    services.game_join(game_id=game.pk, user=other)
    seats = {s.number: s.player.user for s in game.seats.select_related("player__user")}
    services.dispute_create(game_id=game.pk, user=rival, reason="Was that card legal?")
    seat = game.seats.get(player__user=pending)
    game.refresh_from_db()
    announce.turn_reminder_send(game=game, seat=seat)
    announce.seat_handed_to_bot(game=game, seat=seat)
    play_humans_until(game, seats)
    Client().post("/accounts/password_reset/", {"email": "pending@example.org"})
    kinds = set(Notification.objects.filter(user=pending).values_list("kind", flat=True))
    assert {
        NotificationKind.CHALLENGE,
        NotificationKind.GAME_STARTED,
        NotificationKind.YOUR_TURN,
        NotificationKind.REMINDER,
        NotificationKind.DISPUTE_UPDATE,
        NotificationKind.SEAT_HANDED_TO_BOT,
        NotificationKind.GAME_FINISHED,
    } <= kinds
    assert set(
        Notification.objects.filter(user=pending).values_list("email_status", flat=True)
    ) == {EmailStatus.NONE}
    assert [m.subject for m in mails_to("pending@example.org")] == [
        "Confirm your email address for Indulgence Online"
    ]
    assert mails_to("rival@example.org"), "the confirmed players were emailed meanwhile"


def test_once_confirmed_turn_emails_link_to_the_table_and_keep_their_unsubscribe(
    client: Client, opponent: Any, third: Any
) -> None:
    sign_up(client, "ada", "ada@example.org")
    Client().post(confirm_path(mail.outbox[0]))
    ada = get_user_model().objects.get(username="ada")
    game = game_with_seed(creator=ada, player_count=3, rated=False, seed="confirmed")
    services.game_join(game_id=game.pk, user=opponent)
    services.game_join(game_id=game.pk, user=third)
    play_humans_until(game, {0: ada, 1: opponent, 2: third}, stop_seat=0)
    turn = [m for m in mails_to("ada@example.org") if m.subject.startswith("Your turn")]
    assert turn, [m.subject for m in mail.outbox]
    assert f"/games/{game.pk}/" in turn[0].body
    assert turn[0].extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "/notifications/unsubscribe/" in turn[0].extra_headers["List-Unsubscribe"]
