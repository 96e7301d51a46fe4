"""Staff-only pages for dispute review: the queue, the case file, and the remedy forms.

Thin: they read through ``games.staff.selectors`` and write through ``games.disputes``.
Anonymous visitors are sent to the login page; signed-in people who are not staff get 403.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.contrib.auth.models import User
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from games import disputes
from games.errors import NotFound, ServiceError
from games.staff import selectors

View = Callable[..., HttpResponse]


def staff_required(view: View) -> View:
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not request.user.is_staff:
            raise PermissionDenied("Only staff can review disputes.")
        return view(request, *args, **kwargs)

    return wrapper


class QueueFilter(forms.Form):
    status = forms.ChoiceField(
        choices=[(k, label) for k, (label, _) in selectors.STATUS_FILTERS.items()],
        required=False,
    )
    age = forms.ChoiceField(
        choices=[("", "Any age")] + [(k, v[0]) for k, v in selectors.AGE_FILTERS.items()],
        required=False,
    )
    game = forms.IntegerField(min_value=1, required=False, label="Game id")


@require_GET
@staff_required
def queue(request: HttpRequest) -> HttpResponse:
    form = QueueFilter(request.GET or None)
    status, age, game_id = "active", "", None
    if form.is_bound and form.is_valid():
        status = form.cleaned_data["status"] or "active"
        age = form.cleaned_data["age"] or ""
        game_id = form.cleaned_data["game"]
    items = selectors.dispute_queue(status=status, age=age, game_id=game_id)[:500]
    return render(request, "staff/queue.html", {"form": form, "disputes": items, "status": status})


@require_GET
@staff_required
def case(request: HttpRequest, dispute_id: int) -> HttpResponse:
    dispute = _dispute(dispute_id)
    game = dispute.game
    try:
        replay = selectors.replay_step(
            game=game,
            step=_int(request.GET.get("step")),
            seat=_int(request.GET.get("seat")),
            branch=_int(request.GET.get("branch")),
        )
    except ServiceError as exc:
        messages.error(request, exc.detail)
        replay = None
    branch = {"branch": replay["branch"]} if replay and replay["branch"] is not None else {}
    seat = {"seat": replay["seat"]} if replay and replay["seat"] is not None else {}
    context: dict[str, Any] = {
        "dispute": dispute,
        "game": game,
        "replay": replay,
        "seat_numbers": list(range(game.player_count)),
        # What the replay links carry besides the step (and besides the seat).
        "replay_args": urlencode({**seat, **branch}),
        "branch_args": urlencode(branch),
    }
    if getattr(request, "htmx", False) and request.GET.get("partial") == "replay":
        return render(request, "staff/case_file.html#replay", context)
    context["file"] = selectors.case_file(dispute=dispute, game=game)
    return render(request, "staff/case_file.html", context)


class ReasonForm(forms.Form):
    reason = forms.CharField(max_length=disputes.MAX_TEXT, required=False)


class VersionedForm(ReasonForm):
    expected_version = forms.IntegerField(min_value=0, required=False)


class RewindForm(VersionedForm):
    to_move = forms.IntegerField(min_value=0)
    return_autopilot_seats = forms.BooleanField(required=False)


class AdjustForm(ReasonForm):
    seat = forms.IntegerField(min_value=0)
    amount = forms.IntegerField()


def _review(request: HttpRequest, dispute_id: int, data: dict[str, Any]) -> str:
    disputes.dispute_review_start(dispute_id=dispute_id, staff=_staff(request), note=data["reason"])
    return "The dispute is now under review."


def _dismiss(request: HttpRequest, dispute_id: int, data: dict[str, Any]) -> str:
    disputes.dispute_dismiss(
        dispute_id=dispute_id, staff=_staff(request), resolution=data["reason"]
    )
    return "The dispute was dismissed."


def _uphold(request: HttpRequest, dispute_id: int, data: dict[str, Any]) -> str:
    disputes.dispute_uphold(dispute_id=dispute_id, staff=_staff(request), resolution=data["reason"])
    return "The dispute was upheld."


def _void(request: HttpRequest, dispute_id: int, data: dict[str, Any]) -> str:
    dispute = _dispute(dispute_id)
    disputes.game_void(
        game_id=dispute.game_id,
        staff=_staff(request),
        reason=data["reason"],
        dispute_id=dispute_id,
        expected_version=data["expected_version"],
    )
    return f"Game {dispute.game_id} is void; its rating changes were rolled back."


def _rewind(request: HttpRequest, dispute_id: int, data: dict[str, Any]) -> str:
    dispute = _dispute(dispute_id)
    disputes.game_rewind(
        game_id=dispute.game_id,
        staff=_staff(request),
        to_move=data["to_move"],
        reason=data["reason"],
        dispute_id=dispute_id,
        expected_version=data["expected_version"],
        return_autopilot_seats=data["return_autopilot_seats"],
    )
    return f"Game {dispute.game_id} was rewound to move {data['to_move']}; play continues."


def _adjust(request: HttpRequest, dispute_id: int, data: dict[str, Any]) -> str:
    dispute = _dispute(dispute_id)
    disputes.florins_adjust(
        game_id=dispute.game_id,
        staff=_staff(request),
        seat=data["seat"],
        amount=data["amount"],
        reason=data["reason"],
        dispute_id=dispute_id,
    )
    return f"Seat {data['seat']}: {data['amount']:+d} florins recorded."


ACTIONS: dict[str, tuple[type[forms.Form], Callable[[HttpRequest, int, dict[str, Any]], str]]] = {
    "review": (ReasonForm, _review),
    "dismiss": (ReasonForm, _dismiss),
    "uphold": (ReasonForm, _uphold),
    "void": (VersionedForm, _void),
    "rewind": (RewindForm, _rewind),
    "adjust": (AdjustForm, _adjust),
}


@require_POST
@staff_required
def act(request: HttpRequest, dispute_id: int, action: str) -> HttpResponse:
    if action not in ACTIONS:
        raise Http404(f"There is no action {action!r}.")
    form_class, run = ACTIONS[action]
    form = form_class(request.POST)
    target = reverse("staff:case", args=[dispute_id])
    if not form.is_valid():
        problems = "; ".join(f"{k}: {' '.join(map(str, v))}" for k, v in form.errors.items())
        messages.error(request, f"Nothing was changed: {problems}")
        return HttpResponseRedirect(target, status=303)
    try:
        messages.success(request, run(request, dispute_id, form.cleaned_data))
    except ServiceError as exc:
        if isinstance(exc, NotFound) and not _exists(dispute_id):
            raise Http404(exc.detail) from exc
        messages.error(request, f"Nothing was changed: {exc.detail}")
    return HttpResponseRedirect(target, status=303)


def _dispute(dispute_id: int) -> Any:
    try:
        return selectors.dispute_get(dispute_id=dispute_id)
    except NotFound as exc:
        raise Http404(exc.detail) from exc


def _exists(dispute_id: int) -> bool:
    try:
        selectors.dispute_get(dispute_id=dispute_id)
    except NotFound:
        return False
    return True


def _int(value: str | None) -> int | None:
    """A whole number from the query string, or None when absent or not a number."""
    try:
        return int(value) if value else None
    except ValueError:
        return None


def _staff(request: HttpRequest) -> User:
    """The signed-in staff member (``staff_required`` let only them through)."""
    assert isinstance(request.user, User)
    return request.user
