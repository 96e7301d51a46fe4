"""The table's posts besides the moves themselves: "Continue" after a hand, "Rematch"
after a game, "Abort" before anyone played, "Undo" where the game allows it. Each answers
htmx with the table (or a redirect) and works as a plain form post without JavaScript."""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import services
from games.errors import NotFound, ServiceError, VersionConflict
from games.web import endgame, forms
from games.web.views import (
    _bad_request,
    _game_or_404,
    _is_htmx,
    _redirect,
    _table_render,
    htmx_login_required,
)


@require_POST
def hand_seen(request: HttpRequest, game_id: int) -> HttpResponse:
    """ "Continue": the player has read how hand ``hand`` ended; the table shows the game
    as it is now (htmx: the table partial; without JavaScript: back to the table)."""
    game = _game_or_404(game_id)
    hand = forms.plain_int(request.POST.get("hand", ""))
    if hand is None:
        return _bad_request()
    endgame.hands_seen_remember(request, game.pk, hand)
    if not _is_htmx(request):
        return _redirect(request, reverse("table", args=[game.pk]))
    return _table_render(request, game, announce=True)


@require_POST
@htmx_login_required
def game_rematch(request: HttpRequest, game_id: int) -> HttpResponse:
    """A new game like this finished one: the same bots, the other people challenged."""
    try:
        game = services.game_rematch(game_id=game_id, user=cast(User, request.user))
    except NotFound as error:
        raise Http404(error.detail) from error
    except ServiceError as error:
        messages.error(request, error.detail)
        return _redirect(request, reverse("table", args=[game_id]))
    return _redirect(request, reverse("table", args=[game.pk]))


@require_POST
@htmx_login_required
def game_abort(request: HttpRequest, game_id: int) -> HttpResponse:
    """Its creator calls off a game no person has moved in (or a sandbox): it becomes void
    and leaves the lobby. Then to the lobby; a refusal is shown on the table."""
    # No version: calling a game off does not depend on the position (bots move on).
    try:
        services.game_abort(game_id=game_id, user=cast(User, request.user))
    except NotFound as error:
        raise Http404(error.detail) from error
    except ServiceError as error:
        messages.error(request, error.detail)
        return _redirect(request, reverse("table", args=[game_id]))
    messages.success(request, _("Game %(id)s was aborted.") % {"id": game_id})
    return _redirect(request, reverse("lobby"))


@require_POST
@htmx_login_required
def game_undo(request: HttpRequest, game_id: int) -> HttpResponse:
    """ "Undo": take back your last action (Pax Illuminaten's 15.5.2, P-79); ``version`` is
    the version of the table the player saw. The table comes back as it is then, with a
    refusal's reason when nothing was taken back."""
    game = _game_or_404(game_id)
    version = forms.plain_int(request.POST.get("version", ""))
    error, status = "", 200
    try:
        services.move_undo(game_id=game.pk, user=cast(User, request.user), expected_version=version)
    except VersionConflict:
        error = _(
            "The table changed while you were deciding, so nothing was taken back. "
            "Here it is as it is now."
        )
        status = 409
    except NotFound as exc:
        raise Http404(exc.detail) from exc
    except ServiceError as exc:
        error, status = exc.detail, exc.status
    if not _is_htmx(request):
        if error:
            messages.error(request, error)
        return _redirect(request, reverse("table", args=[game.pk]))
    game.refresh_from_db()
    return _table_render(request, game, error=error, status=status, announce=True)
