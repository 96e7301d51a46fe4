"""The account's pages beside the settings: the email address (given, confirmed by a
link), the notifications page and the header's bell.

* ``/settings/email``: give, change, resend the confirmation of, or remove the address;
  the settings page shows the same form (``{% email_settings %}``); htmx gets ``#email``.
* ``/accounts/email/confirm/<token>``: the link of the confirmation message: a page with
  one button (GET changes nothing), whose POST confirms (games/email_addresses.py).
* ``/notifications/``: newest first, unread marked, a link to each game; mark one
  (``/notifications/<id>/read``) or all (``/notifications/read``) read; htmx gets the
  changed item or list and the bell out of band.
* ``/notifications/bell``: the bell alone (the count, the newest unread), fetched by
  ``static/js/inbox.js`` when the account stream says something happened (or, while the
  stream is closed, every 15 s).
"""

from __future__ import annotations

from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.models import User
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import email_addresses, inbox, notifications
from games.errors import NotFound
from games.web.account_email import (
    EmailForm,
    base_url,
    confirmation_wait,
    email_context,
    sent_text,
    wait_text,
)
from games.web.inbox_text import bell_context, notification_line
from games.web.views import _is_htmx, _redirect, htmx_login_required

PAGE_SIZE = 30


def _user(request: HttpRequest) -> User:
    return cast(User, request.user)  # htmx_login_required: signed in


# --- the email address -----------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@htmx_login_required
def email_settings(request: HttpRequest) -> HttpResponse:
    """Give or change the address (a confirmation goes to it), send the confirmation
    again, or remove the address. A plain request gets the whole page, htmx ``#email``."""
    user = _user(request)
    form = EmailForm()
    status = 200
    notice = ""
    if request.method == "POST":
        which = request.POST.get("form", "give")
        if which == "remove":
            email_addresses.address_remove(user=user)
            notice = _("Your email address was removed: no email will be sent to you.")
        elif which == "resend":
            pending = email_addresses.addresses_of(user=user).pending
            if not pending:
                notice = _("There is no address waiting for its confirmation.")
            elif wait := confirmation_wait(request, pending):
                notice, status = wait_text(wait), 429
            else:
                email_addresses.confirmation_request(
                    user=user, address=pending, base_url=base_url(request)
                )
                notice = sent_text(pending)
        else:
            form = EmailForm(request.POST)
            if form.is_valid():
                address = form.cleaned_data["email"]
                if email_addresses.addresses_of(user=user).confirmed.casefold() == (
                    email_addresses.normalised(address).casefold()
                ):
                    email_addresses.address_give(user=user, address=address)
                    notice = _("That is your confirmed address already.")
                    form = EmailForm()
                elif wait := confirmation_wait(request, address):
                    form.add_error("email", wait_text(wait))
                    status = 429
                else:
                    email_addresses.address_give(user=user, address=address)
                    email_addresses.confirmation_request(
                        user=user, address=address, base_url=base_url(request)
                    )
                    notice = sent_text(email_addresses.normalised(address))
                    form = EmailForm()
            else:
                status = 400
        if not _is_htmx(request) and status == 200:
            messages.info(request, notice)
            return HttpResponseRedirect(reverse("settings") + "#email")
    context = email_context(user, form=form, notice=notice, status=status)
    template = "account/email.html#email" if _is_htmx(request) else "account/email.html"
    return render(request, template, context, status=status)


PROBLEMS = {
    "invalid": gettext_lazy(
        "This confirmation link is not valid: it may have been cut short. Copy the whole "
        "link from the message, or ask for a new one in Settings."
    ),
    "expired": gettext_lazy(
        "This confirmation link has expired. Ask for a new one in Settings (Send the link again)."
    ),
    "replaced": gettext_lazy(
        "This link confirms an address that is no longer waiting for confirmation: another "
        "address was given since, or it was removed."
    ),
    "done": gettext_lazy("This address is confirmed already."),
}


@require_http_methods(["GET", "POST"])
def email_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The confirmation link: GET shows the address and one button; POST confirms it.
    No log-in needed: the signed token is the proof (it reached that mailbox)."""
    try:
        user, address = email_addresses.confirmation_target(token=token)
    except email_addresses.LinkProblem as problem:
        status = 200 if problem.problem == "done" else 400
        context = {"problem": PROBLEMS[problem.problem], "done": problem.problem == "done"}
        return render(request, "account/email_confirm.html", context, status=status)
    if request.method == "POST":
        try:
            user, address = email_addresses.address_confirm(token=token)
        except email_addresses.LinkProblem as problem:
            context = {"problem": PROBLEMS[problem.problem], "done": problem.problem == "done"}
            return render(request, "account/email_confirm.html", context, status=400)
        context = {"confirmed": True, "address": address, "username": user.get_username()}
        return render(request, "account/email_confirm.html", context)
    context = {"address": address, "username": user.get_username()}
    return render(request, "account/email_confirm.html", context)


# --- the notifications page and the bell ----------------------------------------------


def _inbox_context(request: HttpRequest) -> dict[str, Any]:
    user = _user(request)
    unread_only = request.GET.get("unread") in ("1", "true", "yes")
    paginator = Paginator(inbox.notifications_page(user=user, unread_only=unread_only), PAGE_SIZE)
    page = paginator.get_page(request.GET.get("page"))
    return {
        "page": page,
        "lines": [notification_line(n) for n in page.object_list],
        "unread_only": unread_only,
        "unread_total": inbox.notifications_page(user=user, unread_only=True).count(),
        **bell_context(user),
    }


@require_GET
@htmx_login_required
def notifications_page(request: HttpRequest) -> HttpResponse:
    context = _inbox_context(request)
    template = "inbox/notifications.html#inbox" if _is_htmx(request) else "inbox/notifications.html"
    return render(request, template, context)


@require_GET
@never_cache
def bell(request: HttpRequest) -> HttpResponse:
    """The bell partial; signed out: 204 (htmx leaves the page as it is)."""
    if not request.user.is_authenticated:
        return HttpResponse(status=204)
    return render(request, "inbox/bell.html", bell_context(_user(request)))


def _back_to_inbox(request: HttpRequest) -> str:
    page = request.POST.get("page", "")
    query = f"?page={page}" if page.isascii() and page.isdigit() else ""
    return reverse("inbox") + query


@require_POST
@htmx_login_required
def notification_read(request: HttpRequest, notification_id: int) -> HttpResponse:
    user = _user(request)
    try:
        notifications.notification_mark_read(user=user, notification_id=notification_id)
    except NotFound as error:
        raise Http404(error.detail) from error
    if not _is_htmx(request):
        return _redirect(request, _back_to_inbox(request))
    row = inbox.notifications_page(user=user).get(pk=notification_id)
    context = {"line": notification_line(row), "item_oob_bell": True, **bell_context(user)}
    return render(request, "inbox/item.html", context)


@require_POST
@htmx_login_required
def notifications_read_all(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    changed = notifications.notification_mark_read(user=user)
    if not _is_htmx(request):
        messages.info(request, _("Every notification is marked read."))
        return _redirect(request, _back_to_inbox(request))
    context = {**_inbox_context(request), "oob_bell": True, "marked": changed}
    return render(request, "inbox/notifications.html#inbox", context)
