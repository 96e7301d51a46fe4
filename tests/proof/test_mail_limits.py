"""Mail abuse: challenges, disputes and password resets each make the server send email
to someone, so each is limited per account and per client address. Beyond the limit the
answer is 429 with ``Retry-After`` (the API's JSON error, or the web pages' sentence) and
no more mail leaves; below it, everything is as before. Password-reset mail is sent by
the task queue, not inside the request.

The limits are set low here (``MAIL_RATE_LIMITS``, from ``MAIL_RATE_<NAME>`` variables);
the last test checks the defaults are finite.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from games import mail_limits, tasks
from games.models import Dispute, Game
from tests.api.support import game_url

pytestmark = pytest.mark.django_db(transaction=True)  # emails are queued after commit


def limits(settings: Any, **rates: str | None) -> None:
    """Only the named limits, nothing else limited."""
    settings.MAIL_RATE_LIMITS = {
        name: None
        for name in (
            "challenge_account",
            "challenge_address",
            "dispute_account",
            "dispute_address",
            "password_reset_account",
            "password_reset_address",
        )
    } | rates


def assert_throttled(response: Any) -> None:
    assert response.status_code == 429, response.content[:300]
    assert 1 <= int(response["Retry-After"]) <= 3600
    body = response.json()
    assert body["code"] == "throttled"
    assert body["detail"].startswith("Too many requests")
    assert body["detail"].endswith(".")


def challenge(client: Client, *invitees: str) -> Any:
    return client.post(
        "/api/v1/games/",
        {"player_count": 4, "invite": list(invitees)},
        content_type="application/json",
    )


def logged_in(user: Any, address: str = "127.0.0.1") -> Client:
    client = Client(REMOTE_ADDR=address)
    client.force_login(user)
    return client


# --- challenges ---------------------------------------------------------------------------


def test_challenges_beyond_the_account_limit_are_refused_and_send_no_mail(
    owner: Any, opponent: Any, third: Any, settings: Any
) -> None:
    limits(settings, challenge_account="3/hour")
    client = logged_in(owner)
    for n in range(1, 4):
        assert challenge(client, "opponent", "third").status_code == 201
        assert len(mail.outbox) == 2 * n  # one challenge email per invitee
    games = Game.objects.count()
    refused = challenge(client, "opponent", "third")
    assert_throttled(refused)
    assert len(mail.outbox) == 6
    assert Game.objects.count() == games  # nothing was created
    # A game without invitations emails nobody and is not counted.
    assert challenge(client).status_code == 201
    # Another account is not affected.
    assert challenge(logged_in(opponent, "10.0.0.2"), "third").status_code == 201
    assert len(mail.outbox) == 7


def test_challenges_beyond_the_address_limit_are_refused_whoever_signs_in(
    owner: Any, opponent: Any, third: Any, outsider: Any, settings: Any
) -> None:
    limits(settings, challenge_address="2/hour")
    assert challenge(logged_in(owner, "203.0.113.9"), "third").status_code == 201
    assert challenge(logged_in(opponent, "203.0.113.9"), "third").status_code == 201
    assert_throttled(challenge(logged_in(outsider, "203.0.113.9"), "third"))
    assert len(mail.outbox) == 2
    assert challenge(logged_in(outsider, "198.51.100.7"), "third").status_code == 201


def test_web_challenges_beyond_the_limit_get_a_429_page(
    owner: Any, opponent: Any, third: Any, settings: Any
) -> None:
    limits(settings, challenge_account="1/hour")
    settings.WEB_RATE_LIMITS = {}
    client = logged_in(owner)
    form = {"player_count": 3, "variant": "basic", "invite": "opponent, third"}
    created = client.post("/games/new", form)
    assert created.status_code in (302, 303), created.content[:300]
    assert len(mail.outbox) == 2
    refused = client.post("/games/new", form)
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) >= 1
    assert b"Too many requests" in refused.content
    assert len(mail.outbox) == 2
    assert client.post("/games/new", {**form, "invite": ""}).status_code in (302, 303)


# --- disputes -----------------------------------------------------------------------------


def test_disputes_beyond_the_limit_are_refused_and_email_nobody(
    game: Game, owner: Any, opponent: Any, settings: Any
) -> None:
    limits(settings, dispute_account="2/hour")
    client = logged_in(owner)
    url = game_url(game, "disputes")
    mail.outbox.clear()
    for n in range(1, 3):
        opened = client.post(url, {"reason": f"Problem {n}"}, content_type="application/json")
        assert opened.status_code == 201, opened.json()
        assert len(mail.outbox) == 3 * n  # every seated player is told
    refused = client.post(url, {"reason": "Again"}, content_type="application/json")
    assert_throttled(refused)
    assert len(mail.outbox) == 6
    assert Dispute.objects.count() == 2
    # The web form is counted against the same limit.
    web = client.post(f"/games/{game.pk}/dispute", {"reason": "From the page"})
    assert web.status_code == 429
    assert b"Too many requests" in web.content
    assert Dispute.objects.count() == 2
    assert len(mail.outbox) == 6
    # Another seated player may still open one.
    other = logged_in(opponent, "10.0.0.3")
    assert other.post(url, {"reason": "Mine"}, content_type="application/json").status_code == 201


def test_disputes_beyond_the_address_limit_are_refused(
    game: Game, owner: Any, opponent: Any, settings: Any
) -> None:
    limits(settings, dispute_address="1/hour")
    url = game_url(game, "disputes")
    first = logged_in(owner, "203.0.113.5").post(url, {"reason": "A"}, "application/json")
    assert first.status_code == 201
    sent = len(mail.outbox)
    again = logged_in(opponent, "203.0.113.5").post(url, {"reason": "B"}, "application/json")
    assert_throttled(again)
    assert len(mail.outbox) == sent


# --- password resets ----------------------------------------------------------------------


def reset(email: str, address: str = "127.0.0.1") -> Any:
    return Client(REMOTE_ADDR=address).post("/accounts/password_reset/", {"email": email})


def test_password_resets_beyond_the_account_limit_are_refused(owner: Any, settings: Any) -> None:
    limits(settings, password_reset_account="2/hour")
    for n in range(1, 3):
        assert reset("owner@example.org", f"10.0.1.{n}").status_code == 302
        assert len(mail.outbox) == n
    refused = reset("OWNER@example.org", "10.0.1.9")  # the same account, another address
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) >= 1
    assert b"Too many requests" in refused.content
    assert len(mail.outbox) == 2


def test_password_resets_beyond_the_address_limit_are_refused(
    owner: Any, opponent: Any, settings: Any
) -> None:
    limits(settings, password_reset_address="2/hour")
    assert reset("owner@example.org", "203.0.113.1").status_code == 302
    assert reset("nobody@example.org", "203.0.113.1").status_code == 302  # counted all the same
    assert reset("opponent@example.org", "203.0.113.1").status_code == 429
    assert len(mail.outbox) == 1
    assert reset("opponent@example.org", "203.0.113.2").status_code == 302
    assert len(mail.outbox) == 2


def test_password_reset_mail_is_sent_by_the_task_queue(
    owner: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a broker, the request only queues the email; a worker sends it."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    queued: list[tuple[Any, ...]] = []
    task = getattr(tasks, "password_reset_email", None)  # (before the fix: no such task)
    if task is not None:
        monkeypatch.setattr(task, "apply_async", lambda args, **kw: queued.append(tuple(args)))
    assert reset("owner@example.org").status_code == 302
    assert mail.outbox == []  # nothing sent inside the request
    assert task is not None
    assert len(queued) == 1
    task.apply(args=queued[0], throw=True)  # what the worker does
    (message,) = mail.outbox
    assert message.to == ["owner@example.org"]
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+/)", message.body)
    assert link is not None, message.body
    page = Client().get(link.group(1), follow=True)
    assert page.status_code == 200
    assert b"new_password1" in page.content  # the link works


def test_the_default_limits_are_finite() -> None:
    from django.conf import settings

    for name in (
        "challenge_account",
        "challenge_address",
        "dispute_account",
        "dispute_address",
        "password_reset_account",
        "password_reset_address",
    ):
        assert settings.MAIL_RATE_LIMITS[name], name
    assert settings.MAIL_RATE_LIMITS == mail_limits.DEFAULT_LIMITS  # settings.py == the module


def test_the_reported_bursts_meet_the_default_limits(
    game: Game, owner: Any, opponent: Any, third: Any, outsider: Any, settings: Any
) -> None:
    """The report: 90 challenge emails in 2.4 s. The same bursts with the default limits:
    30 challenges of 3 invitees, 10 disputes, 10 password resets, one account, one address."""
    settings.MAIL_RATE_LIMITS = dict(mail_limits.DEFAULT_LIMITS)
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None, "actions": None},
    }
    client = logged_in(owner)
    mail.outbox.clear()
    started = time.monotonic()
    answers = [challenge(client, "opponent", "third", "outsider").status_code for _ in range(30)]
    took = time.monotonic() - started
    print(f"30 challenges in {took:.1f} s: {answers.count(201)} created, {len(mail.outbox)} emails")
    assert answers == [201] * 20 + [429] * 10
    assert len(mail.outbox) == 60
    mail.outbox.clear()
    url = game_url(game, "disputes")
    answers = [
        client.post(url, {"reason": f"r{n}"}, content_type="application/json").status_code
        for n in range(10)
    ]
    print(f"10 disputes: {answers.count(201)} opened, {len(mail.outbox)} emails")
    assert answers == [201] * 5 + [429] * 5
    assert len(mail.outbox) == 15  # 3 seated players, 5 disputes
    mail.outbox.clear()
    answers = [reset("owner@example.org").status_code for _ in range(10)]
    print(f"10 password resets: {len(mail.outbox)} emails")
    assert answers == [302] * 3 + [429] * 7
    assert len(mail.outbox) == 3
