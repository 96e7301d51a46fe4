"""Serve signed-in players in the language they chose (Player.language)."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from games.models import Player

LANGUAGE_CODES = frozenset(code for code, _name in settings.LANGUAGES)


class PlayerLanguageMiddleware:
    """After authentication: a signed-in player's saved language wins over the cookie and
    Accept-Language that LocaleMiddleware looked at (anonymous visitors keep those)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            language = (
                Player.objects.filter(user_id=user.pk).values_list("language", flat=True).first()
            )
            if language in LANGUAGE_CODES:
                translation.activate(language)
                request.LANGUAGE_CODE = language
        return self.get_response(request)
