"""A player's public profile and their account settings (display name, language, email,
notifications, tokens and webhooks): split from games.web.views, which keeps the lobby,
"Play now", sign-up and the table."""

from __future__ import annotations

from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.models import User
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games import kinds, notifications, selectors, services, webhooks
from games.errors import ServiceError
from games.models import GameStatus
from games.web import (
    endgame,
    forms,
    vocab,
)
from games.web.views import (
    _bad_request,
    _current_language,
    _is_htmx,
    _lobby_line,
    _redirect,
    htmx_login_required,
)

# --- profile --------------------------------------------------------------------------------

PROFILE_RECENT_GAMES = 10


@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest, username: str) -> HttpResponse:
    """A player's public page: display name (editable by its owner), ratings per variant
    and player count, recent games. Nothing private (email, language, tokens, webhooks)."""
    owner = User.objects.filter(username=username).first()
    player = selectors.player_of(user=owner) if owner is not None else None
    if owner is None or player is None:
        raise Http404(_("There is no player called %(name)s.") % {"name": username})
    is_me = request.user.is_authenticated and request.user.pk == owner.pk
    form = forms.DisplayNameForm(initial={"display_name": player.display_name})
    saved = False
    if request.method == "POST":
        if not is_me:
            return HttpResponse(_("Only its owner may change a profile."), status=403)
        form = forms.DisplayNameForm(request.POST, owner=owner)
        if form.is_valid():
            try:
                player = services.player_display_name_set(
                    user=owner, display_name=form.cleaned_data["display_name"]
                )
            except ServiceError as error:
                form.add_error("display_name", error.detail)
            else:
                if not _is_htmx(request):
                    messages.success(request, _("Your display name was saved."))
                    return redirect("profile", username=owner.get_username())
                form = forms.DisplayNameForm(initial={"display_name": player.display_name})
                saved = True
        if _is_htmx(request):
            context = {"player": player, "owner": owner, "is_me": True, "form": form}
            context["player_name"] = vocab.player_name(
                owner.get_username(), player.display_name, is_bot=player.is_bot
            )
            return render(request, "profile.html#name", {**context, "saved": saved})
    ratings = [
        {
            "variant_label": kinds.get(r.game_type).variant_title(r.variant),
            "player_count": r.player_count,
            "rating": round(r.ordinal, 2),
            "mu": round(r.mu, 2),
            "sigma": round(r.sigma, 2),
            "games": r.games,
        }
        for r in player.ratings.filter(games__gt=0).order_by("variant", "player_count")
    ]
    recent = (
        selectors.game_list(user=owner, mine=True)
        .exclude(status=GameStatus.VOID)
        .exclude(status=GameStatus.OPEN)[:PROFILE_RECENT_GAMES]
    )
    games = [_lobby_line(selectors.game_summary(game=g, user=request.user)) for g in recent]
    for line, game in zip(games, recent, strict=True):
        line["place"] = _place(game, owner)
    context = {
        "player": player,
        "player_name": vocab.player_name(
            owner.get_username(), player.display_name, is_bot=player.is_bot
        ),
        "owner": owner,
        "is_me": is_me,
        "form": form,
        "ratings": ratings,
        "games": games,
    }
    template = "profile.html#profile" if _is_htmx(request) else "profile.html"
    return render(request, template, context)


def _place(game: Any, owner: User) -> str:
    """The profile owner's place in a finished game ("2nd of 4"; "" while it goes on)."""
    if game.status != GameStatus.FINISHED or not game.result:
        return ""
    places = selectors.places(game.result)
    mine = [places[s.number] for s in game.seats.all() if s.player.user_id == owner.pk]
    if not mine:
        return ""
    return _("%(place)s of %(count)s") % {
        "place": endgame.place_label(min(mine)),
        "count": game.player_count,
    }


# --- settings -------------------------------------------------------------------------------


@htmx_login_required
def account_settings(request: HttpRequest) -> HttpResponse:
    """Language, email notifications and quiet hours, webhooks, API tokens."""
    user = cast(User, request.user)  # htmx_login_required: signed in
    services.player_ensure(user=user)
    kinds = [str(kind) for kind in notifications.EMAIL_KINDS]
    notification_form = forms.NotificationForm(
        initial=_notification_initial(user),
        kinds=kinds,
    )
    token_form = forms.TokenForm()
    webhook_form = forms.WebhookForm()
    new_token = new_secret = ""
    which = request.POST.get("form") if request.method == "POST" else None
    try:
        if which == "notifications":
            notification_form = forms.NotificationForm(request.POST, kinds=kinds)
            if notification_form.is_valid():
                notifications.preferences_update(
                    user=user,
                    changes=notification_form.changes(),
                )
                messages.success(request, _("Notification preferences saved."))
                return _settings_redirect(request)
        elif which == "token":
            token_form = forms.TokenForm(request.POST)
            if token_form.is_valid():
                scopes = ["read", "play"] if token_form.cleaned_data["play"] else ["read"]
                _token, new_token = services.token_issue(
                    user=user,
                    name=token_form.cleaned_data["name"],
                    scopes=scopes,
                )
                token_form = forms.TokenForm()
        elif which == "revoke":
            token_id = forms.plain_int(request.POST.get("token", ""))
            if token_id is None:
                return _bad_request()
            services.token_revoke(token_id=token_id, user=user)
            messages.success(request, _("The token was revoked."))
            return _settings_redirect(request)
        elif which == "webhook":
            webhook_form = forms.WebhookForm(request.POST)
            if webhook_form.is_valid():
                webhook = webhooks.webhook_create(
                    user=user,
                    url=webhook_form.cleaned_data["url"],
                    kinds=webhook_form.cleaned_data["kinds"],
                )
                new_secret = webhook.secret
                webhook_form = forms.WebhookForm()
        elif which == "webhook_delete":
            webhook_id = forms.plain_int(request.POST.get("webhook", ""))
            if webhook_id is None:
                return _bad_request()
            webhooks.webhook_delete(user=user, webhook_id=webhook_id)
            messages.success(request, _("The webhook was deleted."))
            return _settings_redirect(request)
    except ServiceError as error:
        target = {"notifications": notification_form, "token": token_form, "webhook": webhook_form}
        if which in target:
            target[which].add_error(None, error.detail)
        else:
            messages.error(request, error.detail)
    context = {
        "language_form": forms.LanguageForm(initial={"language": _current_language()}),
        "notification_form": notification_form,
        "token_form": token_form,
        "tokens": [
            {"row": t, "scopes": vocab.labels(vocab.TOKEN_SCOPES, t.scopes)}
            for t in selectors.tokens_of(user=user)
        ],
        "new_token": new_token,
        "webhook_form": webhook_form,
        "webhooks": [
            {"row": w, "kinds": vocab.labels(vocab.NOTIFICATION_KINDS, w.kinds)}
            for w in selectors.webhooks_of(user=user)
        ],
        "new_secret": new_secret,
    }
    part = {"token": "#tokens", "webhook": "#webhooks"}.get(which or "", "")
    template = f"settings.html{part}" if part and _is_htmx(request) else "settings.html"
    return render(request, template, context)


def _notification_initial(user: Any) -> dict[str, Any]:
    prefs = notifications.preferences_get(user=user)
    initial = {key: value for key, value in prefs.items() if key.startswith("email_")}
    quiet = prefs.get("quiet_hours") or {}
    initial.update(
        {
            "quiet_start": quiet.get("start"),
            "quiet_end": quiet.get("end"),
            "quiet_timezone": quiet.get("timezone", ""),
        }
    )
    return initial


def _settings_redirect(request: HttpRequest) -> HttpResponse:
    return _redirect(request, reverse("settings"))
