"""Thin page views: they read through selectors and write through services.

Every page answers a plain request with the whole page and an htmx request with the
named partial of the same template (``"games/table.html#table"``), so one piece of
markup serves both. Forms post to real URLs and work without JavaScript (the view
redirects after a successful post); with htmx the same URL answers with the partial.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.views import redirect_to_login
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseRedirect,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import escape
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from games import inbox, kinds, selectors, services
from games.api.parsers import MAX_JSON_DEPTH, json_depth
from games.errors import NotFound, ServiceError, VersionConflict
from games.models import GameStatus
from games.web import (
    account_email,
    forms,
    pages,
    pages_indulgence,
    picker,
    table,
    vocab,
)

# Indulgence's table and its partials; every game's are its pages (games/web/pages.py).
TABLE_TEMPLATE = pages_indulgence.TABLE_TEMPLATE
TABLE_PARTS = pages_indulgence.TABLE_PARTS
# The polling fallback: 304 Not Modified when nothing changed (base.html's htmx-config
# makes htmx keep the table and go on polling: htmx 2 would otherwise swap the empty body),
# 286 with the final table once the game is over (htmx swaps it and stops polling).
POLL_NO_CHANGE = 304
POLL_STOP = 286


def _is_htmx(request: HttpRequest) -> bool:
    return bool(getattr(request, "htmx", False))


def _bad_request() -> HttpResponse:
    """A parameter no page of ours sends (``?since=²``, a 5,000-digit id): 400, not 500."""
    return HttpResponseBadRequest(escape(_("That was not a valid action.")))


def htmx_login_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """``login_required`` that sends htmx requests to the login page as a whole page."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.user.is_authenticated:
            return view(request, *args, **kwargs)
        if _is_htmx(request):
            target = request.headers.get("HX-Current-URL") or request.get_full_path()
            return HttpResponseClientRedirect(f"{settings.LOGIN_URL}?next={target}")
        return redirect_to_login(request.get_full_path())

    return wrapper


# --- home, accounts, language -------------------------------------------------------------


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"games": picker.games()})


@require_http_methods(["GET", "POST"])
def play_now(request: HttpRequest) -> HttpResponse:
    """ "Play now": the game asked for (``game``, default Indulgence) as its pages'
    ``PLAY_NOW`` says (Indulgence: 4 players, three heuristic bots, unrated; Pax: alone
    against the Count of St. Germain), under a title that says which.

    POST (signed in, CSRF-checked) starts it and goes to the table. A signed-out visitor
    is sent to sign up with ``next=/play-now?game=...``: the sign-up post then starts the
    game itself (one click), and a log-in comes back here by GET, which only shows the
    buttons, one per game (a GET never creates anything)."""
    game_type = picker.game_type_of(request.POST.get("game") or request.GET.get("game"))
    if not request.user.is_authenticated:
        target = f"{reverse('signup')}?next={quote(_play_now_path(game_type), safe='/')}"
        if _is_htmx(request):
            return HttpResponseClientRedirect(target)
        return redirect(target)
    if request.method == "GET":
        games = picker.games()
        chosen = next(g for g in games if g["key"] == game_type)
        return render(request, "play_now.html", {"games": games, "chosen": chosen})
    game = picker.play_now_game(request.user, game_type)
    return _redirect(request, reverse("table", args=[game.pk]))


def _play_now_path(game_type: str) -> str:
    path = reverse("play_now")
    return path if game_type == kinds.DEFAULT else f"{path}?game={game_type}"


def _safe_next(request: HttpRequest) -> str:
    """The ``next`` of the request (POST, else GET) when it stays on this site, else ""."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, {request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return ""


def signup(request: HttpRequest) -> HttpResponse:
    """Sign up, then go to ``next`` (the lobby by default). With ``next=/play-now`` the
    same post also starts the game against three bots and lands on its table."""
    target = _safe_next(request)
    if request.user.is_authenticated:
        return redirect(target or "lobby")
    form = forms.SignupForm(request.POST or None, initial={"language": _current_language()})
    if (
        request.method == "POST"
        and form.is_valid()
        and not account_email.signup_email_refused(request, form)
    ):
        try:
            user = services.account_signup(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                language=form.cleaned_data["language"],
            )
        except ServiceError as error:
            form.add_error("username", error.detail)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            translation.activate(form.cleaned_data["language"])
            account_email.signup_email_given(request, user, form.cleaned_data["email"])
            chosen = picker.play_now_of(target)
            if chosen is not None:
                target = reverse("table", args=[picker.play_now_game(user, chosen).pk])
            response = redirect(target or "lobby")
            _set_language_cookie(response, form.cleaned_data["language"])
            return response
    chosen = picker.play_now_of(target)
    starts = next((g for g in picker.games() if g["key"] == chosen), None) if chosen else None
    context = {"form": form, "next": target, "starts_game": starts}
    return render(request, "registration/signup.html", context)


@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    """Switch the language: a cookie for everyone, and Player.language when signed in."""
    form = forms.LanguageForm(request.POST)
    if not form.is_valid():
        return HttpResponse(status=400)
    language = form.cleaned_data["language"]
    if request.user.is_authenticated:
        services.player_language_set(user=request.user, language=language)
    target = request.POST.get("next") or "/"
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}):
        target = "/"
    response = HttpResponseRedirect(target)
    _set_language_cookie(response, language)
    return response


def _set_language_cookie(response: HttpResponse, language: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=365 * 24 * 3600,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )


def _current_language() -> str:
    return (translation.get_language() or "en").split("-")[0]


# --- lobby ----------------------------------------------------------------------------------


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    """The lobby; ``?game=<key>`` shows the create form of that game (default Indulgence)."""
    game_type = request.GET.get("game", kinds.DEFAULT)
    if game_type not in kinds.KINDS:
        game_type = kinds.DEFAULT
    form = forms.GameCreateForm(game_type=game_type)
    context = {**_lobby_context(request), "form": form, "games": picker.games()}
    template = "games/lobby.html#lists" if _is_htmx(request) else "games/lobby.html"
    return render(request, template, context)


def _lobby_context(request: HttpRequest) -> dict[str, Any]:
    user = request.user
    open_games = [
        selectors.game_summary(game=g, user=user)
        for g in selectors.game_list(user=user, status=GameStatus.OPEN)[:50]
    ]
    # Games waiting for my move first (games/inbox.py).
    mine = [
        selectors.game_summary(game=g, user=user)
        for g in inbox.my_games_turn_first(user=user, limit=50)
    ]
    watch = [
        selectors.game_summary(game=g, user=user)
        for g in selectors.game_list(user=user, status=GameStatus.IN_PROGRESS)[:20]
    ]
    return {
        # A sandbox (chosen seed) is no one else's to join.
        "open_games": [
            _lobby_line(s) for s in open_games if s["my_seat"] is None and not s["sandbox"]
        ],
        "my_games": [_lobby_line(s) for s in mine],
        # Sandboxes (tools and bot authors trying things) are nobody else's to watch either.
        "watch_games": [_lobby_line(s) for s in watch if s["my_seat"] is None and not s["sandbox"]],
    }


def _lobby_line(summary: dict[str, Any]) -> dict[str, Any]:
    to_act = summary["to_act"]
    names = {s["seat"]: table.seat_name(summary, s["seat"]) for s in summary["seats"]}
    return {
        **summary,
        "status_label": vocab.STATUSES.get(summary["status"], summary["status"]),
        "variant_label": kinds.get(summary["game_type"]).variant_title(summary["variant"]),
        "players": _(", ").join(names.values()),
        "to_act_name": names.get(to_act, "") if to_act is not None else "",
    }


@require_POST
@htmx_login_required
def game_create(request: HttpRequest) -> HttpResponse:
    form = forms.GameCreateForm(request.POST)
    if form.is_valid():
        try:
            game = services.game_create(
                creator=request.user,  # type: ignore[arg-type]
                game_type=form.cleaned_data["game_type"],
                player_count=form.cleaned_data["player_count"],
                variant=form.cleaned_data["variant"],
                turn_timeout_seconds=form.cleaned_data["turn_timeout_seconds"],
                bots=form.bot_seats(),
                rated=form.cleaned_data["rated"],
                invite=form.invitees(),
                options=form.game_options() or None,
            )
        except ServiceError as error:
            form.add_error(None, error.detail)
        else:
            return _redirect(request, reverse("table", args=[game.pk]))
    if _is_htmx(request):
        return render(request, "games/lobby.html#create", {"form": form}, status=400)
    context = {**_lobby_context(request), "form": form, "games": picker.games()}
    return render(request, "games/lobby.html", context, status=400)


@require_POST
@htmx_login_required
def game_join(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        services.game_join(game_id=game_id, user=request.user)  # type: ignore[arg-type]
    except NotFound as error:
        raise Http404(error.detail) from error
    except ServiceError as error:
        messages.error(request, error.detail)
    return _redirect(request, reverse("table", args=[game_id]))


def _redirect(request: HttpRequest, url: str) -> HttpResponse:
    """After a successful post: a 303 for browsers, HX-Location-like redirect for htmx."""
    if _is_htmx(request):
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url)


# --- the table --------------------------------------------------------------------------------


def _game_or_404(game_id: int) -> Any:
    try:
        return selectors.game_get(game_id=game_id)
    except NotFound as error:
        raise Http404(error.detail) from error


def _table_render(
    request: HttpRequest,
    game: Any,
    *,
    part: str = "table",
    error: str = "",
    status: int = 200,
    announce: bool = False,
    extra: dict[str, Any] | None = None,
) -> HttpResponse:
    view = selectors.game_view(game=game, user=request.user)
    game_pages = pages.of(game)
    context = game_pages.table_context(request, game, view)
    context.update(extra or {})
    context["can_abort"] = request.user.is_authenticated and services.game_abortable(
        game, request.user
    )
    context["error"] = error
    # The full record, once published (api.md): a game that never started has none. A
    # finished game always has one, so this also decides the replay link (after_game.html).
    context["record_out"] = selectors.record_published(game) and game.snapshot is not None
    context["announce"] = game_pages.announcement(context) if announce else ""
    if _is_htmx(request):
        return render(request, f"{game_pages.TABLE_TEMPLATE}#{part}", context, status=status)
    context["disputes"] = selectors.disputes_visible(user=request.user, game=game)
    context["can_dispute"] = _dispute_open(game, seated=view["my_seat"] is not None)
    return render(request, game_pages.TABLE_TEMPLATE, context, status=status)


def _dispute_open(game: Any, *, seated: bool) -> bool:
    """Whether a seated player may still dispute this game (services.dispute_create decides;
    this only decides whether to offer the form)."""
    if not seated:
        return False
    if game.status == GameStatus.IN_PROGRESS:
        return True
    return bool(
        game.status == GameStatus.FINISHED
        and game.finished_at is not None
        and timezone.now() - game.finished_at <= services.DISPUTE_WINDOW
    )


@require_POST
@htmx_login_required
def game_dispute(request: HttpRequest, game_id: int) -> HttpResponse:
    """A seated player reports a problem with the game; staff review it (/staff/)."""
    game = _game_or_404(game_id)
    try:
        services.dispute_create(
            game_id=game.pk,
            user=request.user,  # type: ignore[arg-type]
            reason=request.POST.get("reason", ""),
        )
    except ServiceError as error:
        messages.error(request, error.detail)
    else:
        messages.success(
            request, _("Your dispute was sent to the staff. You will be told when it is reviewed.")
        )
    return _redirect(request, reverse("table", args=[game.pk]) + "#disputes")


@require_GET
def game_table(request: HttpRequest, game_id: int) -> HttpResponse:
    """The table. ``?since=<version>`` is the live update: 304 (empty) when nothing
    changed, 286 and the final table once the game is over (nothing will change any more),
    else the table partial."""
    game = _game_or_404(game_id)
    since_raw = request.GET.get("since")
    since = forms.plain_int(since_raw)
    if since_raw is not None and since is None:
        return _bad_request()
    unchanged = since == game.version
    if since is not None and game.status not in (GameStatus.OPEN, GameStatus.IN_PROGRESS):
        return _table_render(request, game, status=POLL_STOP, announce=not unchanged)
    if unchanged:
        return HttpResponse(status=POLL_NO_CHANGE)
    if since is None and not _is_htmx(request):
        # Opening the table is seeing that it is my turn (games/inbox.py).
        inbox.turn_notifications_seen(user=request.user, game_id=game.pk)
    part = request.GET.get("part", "table")
    if part not in pages.of(game).TABLE_PARTS:
        part = "table"
    return _table_render(request, game, part=part, announce=since is not None)


@require_POST
@htmx_login_required
def game_act(request: HttpRequest, game_id: int) -> HttpResponse:
    """Submit one action: ``action`` (the action as JSON), ``version`` (the version the
    player saw) and, for a card, ``ring`` to play the Indulgence ring on it."""
    game = _game_or_404(game_id)
    error = ""
    status = 200
    started = timezone.now()
    game_pages = pages.of(game)
    if hasattr(game_pages, "posted_action"):  # a game whose table posts more than JSON
        action = game_pages.posted_action(request.POST)
    else:
        try:
            action = json.loads(request.POST.get("action", ""))
        except (ValueError, RecursionError):  # RecursionError: nested thousands deep
            action = None
        if json_depth(action) > MAX_JSON_DEPTH:
            action = None
    version_raw = request.POST.get("version", "")
    version = forms.plain_int(version_raw)
    if not isinstance(action, dict) or (version_raw and version is None):
        error, status = _("That was not a valid action."), 400
    else:
        if action.get("type") == "play" and request.POST.get("ring"):
            action["indulgence"] = True
        try:
            services.action_submit(
                game_id=game.pk,
                user=request.user,  # type: ignore[arg-type]
                action=action,
                expected_version=version,
            )
        except VersionConflict:
            error = _(
                "The table changed while you were deciding, so nothing was played. "
                "Here it is as it is now: decide again."
            )
            status = 409
        except ServiceError as exc:
            error, status = exc.detail, exc.status
        else:  # a move of mine: its turn notifications are seen (not any newer one)
            inbox.turn_notifications_seen(user=request.user, game_id=game.pk, before=started)
    # A refused rule is given back to its dealer to mend (not lost in a redirect).
    draft = game_pages.draft_of(request.POST) if error and hasattr(game_pages, "draft_of") else ""
    if not _is_htmx(request) and not draft:
        if error:
            messages.error(request, error)
        return redirect("table", game_id=game.pk)
    game.refresh_from_db()
    return _table_render(
        request, game, error=error, status=status, announce=True, extra={"draft": draft}
    )


# --- leaderboard and rules -------------------------------------------------------------------


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    game_type = request.GET.get("game_type") or kinds.DEFAULT
    if game_type not in kinds.KINDS:
        game_type = kinds.DEFAULT
    pool = selectors.leaderboard_busiest_pool(game_type)
    form = forms.LeaderboardForm(
        request.GET if "variant" in request.GET else {**pool, "game_type": game_type}
    )
    rows: list[dict[str, Any]] = []
    if form.is_valid():
        rows = selectors.leaderboard(
            game_type=form.cleaned_data["game_type"],
            variant=form.cleaned_data["variant"],
            player_count=form.cleaned_data["player_count"],
        )
        for row in rows:
            row["name"] = vocab.player_name(
                row["username"], row["display_name"], is_bot=row["is_bot"]
            )
    template = "games/leaderboard.html#board" if _is_htmx(request) else "games/leaderboard.html"
    return render(request, template, {"form": form, "rows": rows})


@require_GET
def rules_page(request: HttpRequest, game_type: str = kinds.DEFAULT) -> HttpResponse:
    """A game's rules (``/rules/`` is Indulgence's, ``/rules/<key>/`` any game's)."""
    if game_type not in kinds.KINDS:
        raise Http404(_("There is no such game."))
    game_pages = pages.of_kind(kinds.get(game_type))
    context = {**game_pages.rules_context(), "games": picker.games(), "rules_of": game_type}
    return render(request, game_pages.RULES_TEMPLATE, context)
