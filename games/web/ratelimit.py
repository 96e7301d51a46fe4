"""Request rates for the web pages' writes: 429 with ``Retry-After`` and a sentence.

Counted per account when signed in, else per client address
(:func:`games.client_address.client_address`: ``REMOTE_ADDR``, or ``X-Forwarded-For`` from
a trusted proxy), with the same sliding-window counter as the API
(:func:`games.api.throttles.sliding_window_wait`: one Redis round trip, or the local cache
without Redis). Only POSTs count: reading a form never does. The limits are
``WEB_RATE_LIMITS`` (settings, from environment variables ``WEB_RATE_<SCOPE>``):

=============  ==========  ===============================================================
scope          default     what
=============  ==========  ===============================================================
act            120/min     a move posted from the table
create         20/min      "play now" and "create a game"
login          10/min      log-in attempts, per address and username as the log-in reads it
login_address  30/min      log-in attempts, per address, whatever the username
signup         10/hour     new accounts, per address
profile        30/min      display-name changes on the profile page
check          30/min      New Eleusis' rule checks while the dealer types (its editor)
=============  ==========  ===============================================================

Log-ins are counted on both scopes, at ``/accounts/login/`` and ``/admin/login/`` alike
(one counter for both). The username is read as Django's log-in reads it (stripped, NFKC)
and case-folded, so `` bob``, ``ｂｏｂ`` and ``BOB`` are all ``bob``'s attempts. There
is deliberately no limit per username across addresses: anyone could then keep a person
from logging in by failing on purpose under their name.
"""

from __future__ import annotations

import functools
import math
import time
import unicodedata
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.html import escape
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from games.api.throttles import sliding_window_wait
from games.client_address import client_address

DEFAULT_LIMITS = {
    "act": "120/min",
    "create": "20/min",
    "login": "10/min",
    "login_address": "30/min",
    "signup": "10/hour",
    "profile": "30/min",
    "check": "30/min",
}
_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}

View = Callable[..., HttpResponseBase]


def parse_rate(rate: str) -> tuple[int, int]:
    """``"120/min"`` -> (120, 60)."""
    number, period = rate.split("/")
    return int(number), _PERIODS[period.strip()[0]]


def _limit(scope: str) -> tuple[int, int] | None:
    limits: dict[str, str | None] = {**DEFAULT_LIMITS, **getattr(settings, "WEB_RATE_LIMITS", {})}
    rate = limits.get(scope)
    return parse_rate(rate) if rate else None


def login_name(raw: str) -> str:
    """A username as the log-in form reads it (stripped, NFKC; Django's UsernameField),
    case-folded: every spelling that could reach one account is one name."""
    name = str(raw)[:150].strip()
    return unicodedata.normalize("NFKC", name).casefold().strip()


def _counters(request: HttpRequest, scope: str) -> list[tuple[str, str]]:
    """(limit scope, counter key) pairs one POST to a ``scope`` view counts against."""
    address = client_address(request)
    if scope == "login":
        name = login_name(request.POST.get("username", ""))
        return [
            ("login", f"login:addr:{address}:{name}"),
            ("login_address", f"login:addr:{address}"),
        ]
    if request.user.is_authenticated:
        return [(scope, f"{scope}:user:{request.user.pk}")]
    return [(scope, f"{scope}:addr:{address}")]


def _back(request: HttpRequest) -> str:
    """The page the refused form was on (a plain link: the CSP allows no javascript:)."""
    referer = str(request.headers.get("Referer", ""))
    if referer and url_has_allowed_host_and_scheme(referer, {request.get_host()}):
        return referer
    return "/"


def too_many(request: HttpRequest, wait: float) -> HttpResponse:
    seconds = max(1, math.ceil(wait))
    text = _("Too many requests: please wait %(seconds)d seconds and try again.") % {
        "seconds": seconds
    }
    if request.headers.get("HX-Request") == "true":
        body = f'<p class="error" role="alert">{escape(text)}</p>'
    else:
        body = (
            f'<!doctype html><html lang="{escape(getattr(request, "LANGUAGE_CODE", "en"))}">'
            f"<title>429</title><main><h1>429</h1><p>{escape(text)}</p>"
            f'<p><a href="{escape(_back(request))}">←</a></p></main></html>'
        )
    response = HttpResponse(body, status=429, content_type="text/html; charset=utf-8")
    response["Retry-After"] = str(seconds)
    return response


def _wait(request: HttpRequest, scope: str) -> float:
    """Count the request on each of its counters; the longest wait any of them asks."""
    now = time.time()
    waits = [0.0]
    for limit_scope, key in _counters(request, scope):
        limit = _limit(limit_scope)
        if limit is not None:
            number, period = limit
            cache = caches["default"]
            waits.append(sliding_window_wait(cache, f"web-rate:{key}", number, period, now))
    return max(waits)


def rate_limited(scope: str) -> Callable[[View], View]:
    """Refuse POSTs to the view beyond the scope's limit with 429 (see the table above)."""

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if request.method == "POST":
                wait = _wait(request, scope)
                if wait:
                    return too_many(request, wait)
            return view(request, *args, **kwargs)

        return wrapped

    return decorate
