"""Password reset by email (Django's own views, the site's templates): only to a
confirmed address, the link works once, and the pages look like the rest of the site."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from games import email_addresses, services

pytestmark = pytest.mark.django_db(transaction=True)  # the mail is queued after commit

RESET_LINK = re.compile(r"http://testserver(/accounts/reset/[^/\s]+/[^/\s]+/)")
NEW_PASSWORD = "a-Brand-new-passphrase-5"


def reset_link(message: Any) -> str:
    match = RESET_LINK.search(message.body)
    assert match, message.body
    return match.group(1)


def test_the_log_in_page_offers_to_reset_a_forgotten_password(client: Client) -> None:
    html = client.get("/accounts/login/").content.decode()
    assert '<a href="/accounts/password_reset/">Forgot your password?</a>' in html


def test_the_reset_pages_are_the_sites_pages(client: Client) -> None:
    html = client.get("/accounts/password_reset/").content.decode()
    assert '<a class="brand" href="/">Indulgence Online</a>' in html
    assert "<h1>Reset your password</h1>" in html
    assert "Only a confirmed address works" in html
    assert "Django administration" not in html


def test_a_confirmed_address_gets_a_link_that_sets_a_new_password_once(
    client: Client, make_user: Any
) -> None:
    make_user("ada", email="ada@example.org")
    done = client.post("/accounts/password_reset/", {"email": "ADA@example.org"}, follow=True)
    assert "Check your email" in done.content.decode()
    [message] = mail.outbox
    assert message.to == ["ada@example.org"]
    assert message.subject == "Reset your Indulgence Online password"
    assert "Hello ada," in message.body
    form = client.get(reset_link(message), follow=True)
    assert "<h1>Choose a new password</h1>" in form.content.decode()
    complete = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        follow=True,
    ).content.decode()
    assert "Your password was changed" in complete
    assert Client().login(username="ada", password=NEW_PASSWORD)
    again = client.get(reset_link(message), follow=True).content.decode()
    assert "This link does not work" in again


def test_an_address_waiting_for_confirmation_gets_no_reset_link(
    client: Client, make_user: Any
) -> None:
    bea = make_user("bea")
    email_addresses.address_give(user=bea, address="bea@example.org")
    page = client.post("/accounts/password_reset/", {"email": "bea@example.org"}, follow=True)
    assert "Check your email" in page.content.decode()  # the answer never tells
    assert mail.outbox == []


def test_the_reset_message_is_in_the_players_language(client: Client, make_user: Any) -> None:
    kenji = make_user("kenji", email="kenji@example.org")
    services.player_language_set(user=kenji, language="ja")
    client.post("/accounts/password_reset/", {"email": "kenji@example.org"})
    [message] = mail.outbox
    assert message.subject == "Indulgence Online のパスワードの再設定"
    assert "/accounts/reset/" in message.body


def test_too_many_requests_for_one_address_are_refused(
    client: Client, make_user: Any, settings: Any
) -> None:
    settings.MAIL_RATE_LIMITS = {**settings.MAIL_RATE_LIMITS, "password_reset_account": "2/hour"}
    make_user("ada", email="ada@example.org")
    for _ in range(2):
        client.post("/accounts/password_reset/", {"email": "ada@example.org"})
    refused = client.post("/accounts/password_reset/", {"email": "ada@example.org"})
    assert refused.status_code == 429
    assert len(mail.outbox) == 2
    assert get_user_model().objects.get(username="ada").check_password("pw")
