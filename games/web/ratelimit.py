"""Request rates for the web pages' writes: 429 with ``Retry-After`` and a sentence.

Counted per account when signed in, else per client address (``REMOTE_ADDR``; behind a
proxy, set it from the forwarded header there), with the same sliding-window counter as
the API (:func:`games.api.throttles.sliding_window_wait`: one Redis round trip, or the
local cache without Redis). Only POSTs count: reading a form never does. The limits are
``WEB_RATE_LIMITS`` (settings, from environment variables ``WEB_RATE_<SCOPE>``):

=========  ==========  ===================================================
scope      default     what
=========  ==========  ===================================================
act        120/min     a move posted from the table
create     20/min      "play now" and "create a game"
login      10/min      log-in attempts, per address and username
signup     10/hour     new accounts, per address
profile    30/min      display-name changes on the profile page
=========  ==========  ===================================================
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.html import escape
from django.utils.translation import gettext as _

from games.api.throttles import sliding_window_wait

DEFAULT_LIMITS = {
    "act": "120/min",
    "create": "20/min",
    "login": "10/min",
    "signup": "10/hour",
    "profile": "30/min",
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


def _who(request: HttpRequest, scope: str) -> str:
    if scope != "login" and request.user.is_authenticated:
        return f"user:{request.user.pk}"
    address = request.META.get("REMOTE_ADDR", "")
    if scope == "login":
        username = str(request.POST.get("username", ""))[:150].lower()
        return f"addr:{address}:{username}"
    return f"addr:{address}"


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
            f'<p><a href="javascript:history.back()">←</a></p></main></html>'
        )
    response = HttpResponse(body, status=429, content_type="text/html; charset=utf-8")
    response["Retry-After"] = str(seconds)
    return response


def rate_limited(scope: str) -> Callable[[View], View]:
    """Refuse POSTs to the view beyond the scope's limit with 429 (see the table above)."""

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            limit = _limit(scope)
            if request.method == "POST" and limit is not None:
                number, period = limit
                key = f"web-rate:{scope}:{_who(request, scope)}"
                wait = sliding_window_wait(caches["default"], key, number, period, time.time())
                if wait:
                    return too_many(request, wait)
            return view(request, *args, **kwargs)

        return wrapped

    return decorate
