"""Template tags of the account pieces every page may show (``{% load inbox %}``):

* ``{% bell %}``: the header's bell (unread count, newest unread), for a signed-in person;
* ``{% email_settings %}``: the email address section of the settings page;
* ``{% desktop_notifications %}``: the button that asks for the browser's permission;
* ``{% your_turn_games owner %}``: the games waiting for the owner's move (their profile).

Tags rather than view context so that the shared views and base template need one line
each; they query only when rendered (never in htmx partials that leave them out).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from games import inbox, selectors
from games.web import table
from games.web.account_email import email_context
from games.web.inbox_text import bell_context

register = template.Library()


@register.inclusion_tag("inbox/bell.html", takes_context=True)
def bell(context: template.Context) -> dict[str, Any]:
    user = context["request"].user
    if not user.is_authenticated:
        return {"bell_hidden": True}
    return bell_context(user)


@register.inclusion_tag("account/email.html#email", takes_context=True)
def email_settings(context: template.Context) -> dict[str, Any]:
    request = context["request"]
    return {
        "csrf_token": context.get("csrf_token"),
        "request": request,
        **email_context(request.user),
    }


@register.inclusion_tag("inbox/desktop.html")
def desktop_notifications() -> dict[str, Any]:
    return {}


@register.inclusion_tag("inbox/your_turn.html", takes_context=True)
def your_turn_games(context: template.Context, owner: User) -> dict[str, Any]:
    """Only for the owner themself (the profile shows it when ``is_me``)."""
    viewer = context["request"].user
    if not viewer.is_authenticated or viewer.pk != owner.pk:
        return {"games": []}
    games = []
    for game in inbox.games_my_turn(user=viewer)[:50]:
        summary = selectors.game_summary(game=game, user=viewer)
        # One name per seat, as everywhere (bots by their translated kind and seat).
        names = [table.seat_name(summary, s["seat"]) for s in summary["seats"]]
        games.append({**summary, "players": _(", ").join(names)})
    return {"games": games}
