"""Issue 21's "done when", in real headless Chromium: a person signs up with an email
address, confirms it from the outbox, starts a game against a person and bots, and when it
becomes their turn the header's unread count rises live, the notifications page lists it
and an email with a link to the table is in the outbox; a password reset by email; the
bell kept live by polling while the stream is blocked; desktop notifications with the
player's permission only, shown while the tab is in the background."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from playwright.sync_api import Page, expect

from games import email_addresses, selectors, services
from games.models import Game, Notification, NotificationKind
from tests.browser.conftest import PHONE, STREAM_KEEPALIVE, screenshot
from tests.browser.helpers import log_in, take_one_step

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-Passphrase-9"


def link_in(message: Any, pattern: str) -> str:
    match = re.search(pattern, message.body)
    assert match, message.body
    return match.group(0)


def bell_number(page: Page) -> int:
    count = page.locator("#bell .count")
    return int(count.inner_text()) if count.count() else 0


def wait_for_bell(page: Page, number: int, timeout: int) -> None:
    page.wait_for_function(
        "n => { const c = document.querySelector('#bell .count');"
        " return Number(c ? c.textContent : 0) === n; }",
        arg=number,
        timeout=timeout,
    )


def unread(user: Any) -> int:
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


def play_until_my_turn(game: Game, me: Any, other_page: Page) -> None:
    """The other person plays (on their page) until the turn is mine."""
    for _ in range(60):
        game.refresh_from_db()
        seat = game.seats.get(number=game.to_act_seat) if game.to_act_seat is not None else None
        if seat is not None and seat.player.user_id == me.pk:
            return
        if seat is None or seat.bot_kind or seat.player.is_bot:
            other_page.wait_for_timeout(200)  # a bot or a settlement: done by the server
            continue
        if not take_one_step(other_page):
            other_page.wait_for_timeout(200)
    raise AssertionError("it never became my turn")


def test_sign_up_confirm_the_address_and_be_told_live_when_it_is_my_turn(
    live_server: Any, new_page: Any
) -> None:
    base = live_server.url
    get_user_model().objects.create_user(username="bob", password="pw", email="bob@example.org")
    ada_page, bob_page = new_page(), new_page()

    # Sign up with an address: one message, a link to confirm it.
    ada_page.goto(f"{base}/accounts/signup/")
    expect(ada_page.get_by_text("Other players never see it.")).to_be_visible()
    ada_page.fill("#id_username", "ada")
    ada_page.fill("#id_password1", PASSWORD)
    ada_page.fill("#id_password2", PASSWORD)
    ada_page.fill("#id_email", "ada@example.org")
    screenshot(ada_page, "signup-with-email")
    ada_page.get_by_role("button", name="Create my account").click()
    expect(ada_page).to_have_url(f"{base}/lobby/")
    expect(ada_page.locator(".messages")).to_contain_text("We sent a link to ada@example.org.")
    [confirmation] = mail.outbox
    assert confirmation.to == ["ada@example.org"]
    ada_page.goto(link_in(confirmation, re.escape(base) + r"/accounts/email/confirm/\S+"))
    screenshot(ada_page, "email-confirm")
    ada_page.get_by_role("button", name="Confirm this address").click()
    expect(ada_page.locator("h1")).to_have_text("Your email address is confirmed")
    screenshot(ada_page, "email-confirmed")
    ada = get_user_model().objects.get(username="ada")
    assert ada.email == "ada@example.org"
    ada_page.goto(f"{base}/settings/")
    expect(ada_page.locator("#email")).to_contain_text("ada@example.org (confirmed)")
    screenshot(ada_page, "settings-email")

    # A game against a person (bob, invited) and two bots.
    ada_page.goto(f"{base}/lobby/")
    ada_page.select_option("#id_player_count", "4")
    ada_page.select_option("#id_seat_1", "")
    ada_page.select_option("#id_seat_2", "heuristic")
    ada_page.select_option("#id_seat_3", "heuristic")
    ada_page.uncheck("#id_rated")
    ada_page.fill("#id_invite", "bob")
    ada_page.get_by_role("button", name="Create the game").click()
    expect(ada_page.locator("#status")).to_contain_text("Waiting for 1 more player.")
    game = Game.objects.get()
    ada_page.goto(f"{base}/lobby/")  # waits elsewhere than the table, bell in sight
    ada_page.evaluate("() => { window.notReloaded = true; }")
    ada_page.wait_for_function("() => !!document.getElementById('bell')")
    before = bell_number(ada_page)
    assert before == unread(ada) == 0

    log_in(bob_page, base, "bob")
    bob_page.goto(f"{base}/notifications/")
    expect(bob_page.locator("#inbox")).to_contain_text(f"ada challenges you to game {game.pk}.")
    bob_page.goto(f"{base}/lobby/")
    bob_page.get_by_role("button", name=f"Join game {game.pk}").click()
    expect(bob_page.locator("#table")).to_be_visible()
    play_until_my_turn(game, ada, bob_page)

    # Ada's page was not reloaded: the stream told the bell.
    turn = Notification.objects.filter(user=ada, game=game, kind=NotificationKind.YOUR_TURN)
    assert turn.exists()
    wait_for_bell(ada_page, unread(ada), timeout=8_000)  # well before the 15 s polling
    assert bell_number(ada_page) > before
    # The lobby's "My games" follows the same stream: the game now says "Your turn".
    row = ada_page.locator("#lists tr").filter(has_text=f"Game {game.pk}")
    expect(row).to_contain_text("Your turn", timeout=8_000)
    assert ada_page.evaluate("() => window.notReloaded === true")
    screenshot(ada_page, "bell-your-turn")

    ada_page.locator("#bell").click()
    expect(ada_page).to_have_url(f"{base}/notifications/")
    item = ada_page.locator("li.note").filter(has_text=f"Your turn in game {game.pk}.").first
    expect(item).to_contain_text("New")
    expect(item.get_by_role("link", name=f"Open game {game.pk}")).to_have_attribute(
        "href", f"/games/{game.pk}/"
    )
    screenshot(ada_page, "notifications")
    item.get_by_role("button", name="Mark read").click()
    expect(item).not_to_contain_text("New")
    ada_page.set_viewport_size(PHONE)
    screenshot(ada_page, "notifications-phone")

    emails = [m for m in mail.outbox if m.to == ["ada@example.org"] and "Your turn" in m.subject]
    assert emails, [m.subject for m in mail.outbox]
    assert f"/games/{game.pk}/" in emails[0].body
    assert "Stop these emails:" in emails[0].body

    # Opening the table is seeing the turn: its notification is read, the bell says so.
    ada_page.goto(f"{base}/games/{game.pk}/")
    expect(ada_page.locator("#status")).to_contain_text("Your turn")
    assert not turn.filter(read_at__isnull=True).exists()


def test_reset_a_password_by_email(live_server: Any, new_page: Any) -> None:
    base = live_server.url
    get_user_model().objects.create_user(
        username="cleo", password="old-pw-Secret-1", email="cleo@example.org"
    )
    page = new_page()
    page.goto(f"{base}/accounts/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    expect(page.locator("h1")).to_have_text("Reset your password")
    screenshot(page, "password-reset")
    page.fill("#id_email", "cleo@example.org")
    page.get_by_role("button", name="Email me a link").click()
    expect(page.locator("h1")).to_have_text("Check your email")
    screenshot(page, "password-reset-sent")
    [message] = mail.outbox
    assert message.to == ["cleo@example.org"]
    page.goto(link_in(message, re.escape(base) + r"/accounts/reset/\S+/"))
    expect(page.locator("h1")).to_have_text("Choose a new password")
    page.fill("#id_new_password1", "A-new-Passphrase-77")
    page.fill("#id_new_password2", "A-new-Passphrase-77")
    screenshot(page, "password-reset-new")
    page.get_by_role("button", name="Save the new password").click()
    expect(page.locator("h1")).to_have_text("Your password was changed")
    screenshot(page, "password-reset-done")
    log_in(page, base, "cleo", password="A-new-Passphrase-77")
    expect(page.locator("header")).to_contain_text("Log out cleo")


def test_with_the_stream_blocked_the_bell_is_kept_by_polling(
    live_server: Any, new_page: Any, settings: Any
) -> None:
    settings.INBOX_POLL_SECONDS = 1
    user = get_user_model().objects.create_user(username="dan", password="pw")
    services.player_ensure(user=user)
    page = new_page()
    page.route("**/api/v1/stream", lambda route: route.abort())
    log_in(page, live_server.url, "dan")
    page.goto(f"{live_server.url}/rules/")
    assert bell_number(page) == 0
    game = services.game_create(
        creator=user, player_count=3, rated=False, bots=[(1, "random"), (2, "random")]
    )
    game.refresh_from_db()
    expected = unread(user)
    assert expected > 0
    wait_for_bell(page, expected, timeout=10_000)


def latest_turn(user: Any) -> int:
    return (
        Notification.objects.filter(user=user, kind=NotificationKind.YOUR_TURN)
        .order_by("-id")
        .values_list("id", flat=True)[0]
    )


def wait_for_latest(page: Page, notification_id: int) -> None:
    """The bell (fetched again after the stream's event) names this notification."""
    page.wait_for_function(
        "id => { const b = document.getElementById('bell');"
        " return b && Number(b.dataset.latest) === id; }",
        arg=notification_id,
        timeout=8_000,
    )


DESKTOP_SPY = """
window.__shown = [];
window.__asked = 0;
if (window.Notification) {
  const Real = window.Notification;
  const ask = Real.requestPermission.bind(Real);
  Real.requestPermission = (...args) => { window.__asked += 1; return ask(...args); };
  window.Notification = class extends Real {
    constructor(title, options) { super(title, options); window.__shown.push({title, ...options}); }
  };
}
let hidden = false;
Object.defineProperty(Document.prototype, "hidden", {get: () => hidden, configurable: true});
Object.defineProperty(Document.prototype, "visibilityState",
  {get: () => (hidden ? "hidden" : "visible"), configurable: true});
window.__background = () => {
  hidden = true;
  document.dispatchEvent(new Event("visibilitychange"));
};
"""


def test_desktop_notifications_only_with_permission_and_only_in_the_background(
    live_server: Any, browser: Any
) -> None:
    base = live_server.url
    eve = get_user_model().objects.create_user(username="eve", password="pw")
    services.player_ensure(user=eve)
    context = browser.new_context()
    try:
        context.set_default_timeout(15_000)
        context.add_init_script(DESKTOP_SPY)
        page = context.new_page()
        log_in(page, base, "eve")
        page.goto(f"{base}/notifications/")
        box = page.locator("[data-desktop-notifications]")
        expect(box.get_by_role("button", name="Turn on desktop notifications")).to_be_visible()
        assert page.evaluate("() => window.__asked") == 0, "never asked on load"
        screenshot(page, "desktop-notifications-ask")
        context.grant_permissions(["notifications"], origin=base)
        box.get_by_role("button", name="Turn on desktop notifications").click()
        expect(box).to_contain_text("Desktop notifications are on in this browser")
        assert page.evaluate("() => window.__asked") == 1

        # A turn while the tab is in front: no desktop notification (the bell says it).
        game = services.game_create(
            creator=eve, player_count=3, rated=False, bots=[(1, "heuristic"), (2, "heuristic")]
        )
        game.refresh_from_db()
        first = latest_turn(eve)
        wait_for_latest(page, first)
        page.wait_for_timeout(300)  # htmx settles the bell (20 ms), then inbox.js looks
        assert page.evaluate("() => window.__shown.length") == 0

        # In the background: the next turn is shown on the desktop.
        page.evaluate("() => window.__background()")
        view = selectors.game_view(game=game, user=eve)
        assert game.to_act_seat == 0, "the bots played; it is eve's turn"
        services.action_submit(
            game_id=game.pk,
            user=eve,
            action=view["legal_actions"][0],
            expected_version=game.version,
        )
        second = latest_turn(eve)
        assert second > first
        page.wait_for_function(
            "tag => window.__shown.some(n => n.tag === tag)",
            arg=f"indulgence-{second}",
            timeout=8_000,
        )
        shown = page.evaluate("() => window.__shown")
        assert [n["title"] for n in shown] == [f"Your turn in game {game.pk}."]

        # Turned off in this browser: nothing more is shown.
        page.goto(f"{base}/notifications/")
        page.evaluate("() => window.__background()")
        box.get_by_role("button", name="Turn them off").click()
        expect(box).to_contain_text("Desktop notifications are off in this browser.")
        game.refresh_from_db()
        view = selectors.game_view(game=game, user=eve)
        services.action_submit(
            game_id=game.pk,
            user=eve,
            action=view["legal_actions"][0],
            expected_version=game.version,
        )
        wait_for_latest(page, latest_turn(eve))
        page.wait_for_timeout(300)
        assert page.evaluate("() => window.__shown.length") == 0
    finally:
        context.close()
        time.sleep(STREAM_KEEPALIVE + 0.5)  # as new_page does: let the streams notice


def test_the_new_pages_have_no_serious_accessibility_violations(
    live_server: Any, new_page: Any
) -> None:
    from tests.browser.test_accessibility import axe_problems

    base = live_server.url
    fay = get_user_model().objects.create_user(username="fay", password="pw")
    # A game waiting for fay's move: her bell has a count, her profile a "Your turn" list.
    services.game_create(
        creator=fay,
        player_count=3,
        rated=False,
        seed="axe-inbox",
        bots=[(1, "random"), (2, "random")],
    )
    email_addresses.address_give(user=fay, address="fay@example.org")
    token = email_addresses.confirmation_token(user_id=fay.pk, address="fay@example.org")
    page = new_page(bypass_csp=True)  # axe is injected as a script
    log_in(page, base, "fay")
    paths = {
        "notifications": "/notifications/",
        "email": "/settings/email",
        "settings": "/settings/",
        "profile with my turn": "/players/fay/",
        "confirm": f"/accounts/email/confirm/{token}",
        "password change": "/accounts/password_change/",
    }
    problems = {}
    for name, path in paths.items():
        page.goto(base + path)
        if found := axe_problems(page):
            problems[name] = found
    visitor = new_page(bypass_csp=True)
    for name, path in {
        "reset": "/accounts/password_reset/",
        "reset sent": "/accounts/password_reset/done/",
        "reset bad link": "/accounts/reset/MQ/wrong/",
        "sign up": "/accounts/signup/",
    }.items():
        visitor.goto(base + path)
        if found := axe_problems(visitor):
            problems[name] = found
    assert problems == {}
