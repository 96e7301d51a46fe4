"""Limits on what makes the server send email to someone: challenges (a game created
with invitations), disputes (each emails every seated player), password resets and
address confirmations (games.email_addresses: sign-up or settings with a new address).

Each is counted per account and per client address
(:func:`games.client_address.client_address`), with the sliding-window counter of the
API's throttles (one Redis round trip; the local cache without Redis). Beyond a limit the
answer is 429 with ``Retry-After``: the API's ``{"code": "throttled", "detail": ...}``
(:class:`ChallengeThrottle`, :class:`DisputeThrottle`), the web pages' sentence
(:func:`mail_limited`). Refused requests are counted too, as everywhere else.

``MAIL_RATE_LIMITS`` (settings, from ``MAIL_RATE_<NAME>``; ``""`` turns one off):

=========================  =========  ===============================================
name                       default    counts
=========================  =========  ===============================================
challenge_account          20/hour    games created with invitations, per account
challenge_address          60/hour    the same, per client address
dispute_account            5/hour     disputes opened, per account
dispute_address            20/hour    the same, per client address
password_reset_account     3/hour     reset requests for one email address
password_reset_address     10/hour    reset requests from one client address
email_confirm_account      3/hour     confirmation messages to one email address
email_confirm_address      10/hour    confirmation messages asked from one client address
=========================  =========  ===============================================

Password-reset mail is sent by a task (``games.password_reset_email``, on the notify
queue), never inside the request; the task makes the link itself, so no reset token
travels through the broker.
"""

from __future__ import annotations

import functools
import hashlib
import math
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.tokens import default_token_generator
from django.contrib.auth.views import PasswordResetView
from django.core.cache import caches
from django.http import HttpRequest, HttpResponseBase
from django.utils import translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

from games import jobs
from games.api.throttles import sliding_window_wait
from games.client_address import client_address
from games.models import Player
from games.web.ratelimit import parse_rate, too_many

DEFAULT_LIMITS: dict[str, str] = {
    "challenge_account": "20/hour",
    "challenge_address": "60/hour",
    "dispute_account": "5/hour",
    "dispute_address": "20/hour",
    "password_reset_account": "3/hour",
    "password_reset_address": "10/hour",
    "email_confirm_account": "3/hour",
    "email_confirm_address": "10/hour",
}

View = Callable[..., HttpResponseBase]


def _rate(name: str) -> tuple[int, int] | None:
    limits: dict[str, str | None] = {
        **DEFAULT_LIMITS,
        **getattr(settings, "MAIL_RATE_LIMITS", {}),
    }
    rate = limits.get(name)
    return parse_rate(rate) if rate else None


def wait_for(scope: str, *, account: str | None, address: str) -> float:
    """Count one request of ``scope`` for the account and the address; 0.0 if both are
    within their limits, else the seconds to wait."""
    waits = [0.0]
    now = time.time()
    for kind, who in (("account", account), ("address", address)):
        rate = _rate(f"{scope}_{kind}")
        if rate is None or not who:
            continue
        number, period = rate
        digest = hashlib.sha256(who.encode()).hexdigest()[:32]  # no addresses in keys
        key = f"mail-rate:{scope}:{kind}:{digest}"
        waits.append(sliding_window_wait(caches["default"], key, number, period, now))
    return max(waits)


# --- the API ------------------------------------------------------------------------------


class MailThrottle(BaseThrottle):
    """A DRF throttle over :func:`wait_for`: POSTs only, per account and per address."""

    scope = ""

    def __init__(self) -> None:
        self._wait = 0.0

    def counts(self, request: Request) -> bool:
        return request.method == "POST"

    def allow_request(self, request: Request, view: Any) -> bool:
        if not self.counts(request):
            return True
        user = request.user
        account = str(user.pk) if user is not None and user.is_authenticated else None
        self._wait = wait_for(self.scope, account=account, address=client_address(request._request))
        return self._wait == 0.0

    def wait(self) -> float | None:
        return float(max(1, math.ceil(self._wait)))


class ChallengeThrottle(MailThrottle):
    """``POST /api/v1/games/`` with a non-empty ``invite``."""

    scope = "challenge"

    def counts(self, request: Request) -> bool:
        if request.method != "POST":
            return False
        data = request.data
        return isinstance(data, dict) and bool(data.get("invite"))


class DisputeThrottle(MailThrottle):
    """``POST /api/v1/games/{id}/disputes``."""

    scope = "dispute"


# --- the web pages ------------------------------------------------------------------------


def _signed_in_account(request: HttpRequest) -> str | None:
    return str(request.user.pk) if request.user.is_authenticated else None


def mail_limited(
    scope: str,
    *,
    when: Callable[[HttpRequest], bool] | None = None,
    account: Callable[[HttpRequest], str | None] = _signed_in_account,
) -> Callable[[View], View]:
    """Refuse POSTs to the view beyond the scope's limits with 429 (games.web.ratelimit's
    page or htmx fragment). ``when``: only requests it accepts are counted."""

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if request.method == "POST" and (when is None or when(request)):
                wait = wait_for(scope, account=account(request), address=client_address(request))
                if wait:
                    return too_many(request, wait)
            return view(request, *args, **kwargs)

        return wrapped

    return decorate


def invites_someone(request: HttpRequest) -> bool:
    """The web "create a game" form names someone to challenge."""
    return bool(str(request.POST.get("invite", "")).strip())


# --- password reset -----------------------------------------------------------------------


def _reset_address(request: HttpRequest) -> str | None:
    return str(request.POST.get("email", "")).strip().lower()[:254] or None


class QueuedPasswordResetForm(PasswordResetForm):
    """Django's form, except that the email is queued (after commit) instead of sent."""

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        jobs.enqueue_on_commit(
            "games.password_reset_email",
            context["user"].pk,
            to_email,
            context["domain"],
            context["site_name"],
            context["protocol"] == "https",
        )


password_reset_view = mail_limited("password_reset", account=_reset_address)(
    PasswordResetView.as_view(form_class=QueuedPasswordResetForm)
)


def password_reset_send(
    *, user_id: int, email: str, domain: str, site_name: str, use_https: bool
) -> bool:
    """Send one password-reset email (the task's work); False if the account can no
    longer be reset at that address."""
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None or not user.has_usable_password():
        return False
    if str(getattr(user, user.get_email_field_name(), "")).lower() != email.lower():
        return False  # the address changed since the request
    context = {
        "email": email,
        "domain": domain,
        "site_name": site_name,
        "uid": urlsafe_base64_encode(force_bytes(user.pk)),
        "user": user,
        "token": default_token_generator.make_token(user),
        "protocol": "https" if use_https else "http",
    }
    player = Player.objects.filter(user=user).only("language").first()
    # In the account's language: a worker has no request to take one from.
    with translation.override(player.language if player else settings.LANGUAGE_CODE):
        PasswordResetForm().send_mail(
            "registration/password_reset_subject.txt",
            "registration/password_reset_email.html",
            context,
            None,
            email,
        )
    return True
