"""Issue 25's done-when, second item: a whole 3-player Pax Illuminaten game with two
third-party API bots and one web player runs to its end by notification.

* The two API bots are accounts made by ``manage.py issue_token --create --bot``. They
  play only through the JSON API with their bearer tokens: they poll
  ``GET /api/v1/notifications?unread=true`` (docs/notifications.md), and on a
  ``your_turn`` for the game they mark it read, GET the seat's view and POST the engine's
  heuristic seat bot's choice (``engine.pax.ai``), made from that JSON view alone, with
  the view's version; they keep deciding while the answer's view says the decision is
  theirs (P-74: a seat is told once when the decision passes to it).
* The web player is logged in with a CSRF-checking test client. On each email the
  server sends them (``django.core.mail.outbox``, with its site inbox entry) they open
  the email's link, read the table page, and play one of the offered actions from the
  page's HTML: a button's form, or a highlighted card of the map (the htmx click) and
  then one of the actions listed for it, with the form's CSRF token, as htmx posts it.
* Nobody looks at the game without a notification. Each notification names the decision
  asked (the defender of an Oust is told "You are ousted"). The web player's pages never
  show a card of another seat's hand, event hand or private plot that its own seat's
  view does not hold (checked against the engine state in the database).
* The game ends (no round cap): "Game over" on the web player's page, ``finished`` with
  the result over the API, every player move in the database made by the actor told.

Tasks run eagerly after each commit (tests/settings.py): the automatic steps and the
emails happen inside the request that caused them, as a worker would right after it.
"""

from __future__ import annotations

import io
import random
import re
from abc import ABC, abstractmethod
from collections import Counter
from dataclasses import dataclass, field
from html import unescape
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import call_command
from django.test import Client as DjangoClient
from pytest_django.fixtures import Settings as SettingsWrapper

from engine.pax.ai.heuristic import heuristic_bot
from engine.pax.loader import data as pax_data
from engine.pax.record import state_json
from engine.pax.view import view as pax_view
from games import kinds
from games.models import Game, GameStatus, Move, Notification, NotificationKind
from tests.api.support import Client as ApiClient
from tests.helpers import game_with_seed

pytestmark = pytest.mark.django_db(transaction=True)  # emails and steps run after commit

SEED = "notify-6"  # measured: a short game in which the web player is ousted (asserted)
WEB_RNG_SEED = 2
BOT_RNG_SEEDS = {1: 101, 2: 202}
# The notifications that ask something of a player; the others (started, joined) inform.
TELLING = (NotificationKind.YOUR_TURN, NotificationKind.GAME_FINISHED)
MAX_WAKES = 600  # far above the game's need: a game that does not end fails the test
DATA = pax_data()
CARD_ID = re.compile(r"(?<![\w-])(PIL\d{3}|P\d{2}|S\d{2})(?![\w-])")
# What a notification's title must name for each decision kind (H.7), as a player reads it.
DECISION_WORDS = {
    "action": "your turn",
    "event": "event",
    "pay": "pay",
    "gain": "favor",
    "overturn": "overturn",
    "conspire": "conspire",
    "place": "place",
    "move": "move",
    "oust_card": "oust card",
    "oust_next": "oust",
    "strength": "strength",
    "bonus": "bonus",
    "special": "special",
    "keep_event": "event",
    "keep_plot": "plot",
    "court": "court",
}


# --- what the web player reads off a page ------------------------------------------------


@dataclass
class Form:
    action: str
    fields: dict[str, str]
    label: str = ""


@dataclass
class Page:
    """The table as its HTML says it: the turn line, the action forms (``picked``: those
    listed for the clicked map card), the highlighted map cards (their htmx click), the
    result line."""

    turn: str = ""
    result: str = ""
    forms: list[Form] = field(default_factory=list)
    picked: list[Form] = field(default_factory=list)
    targets: list[str] = field(default_factory=list)


class _TableParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.page = Page()
        self._form: Form | None = None
        self._button = False
        self._capture: str | None = None
        self._depth = 0
        self._divs: list[bool] = []  # open divs: whether each is the clicked card's list

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        classes = a.get("class", "").split()
        if tag == "form" and a.get("action", "").endswith("/act"):
            self._form = Form(action=a["action"], fields={})
        elif tag == "input" and self._form is not None and a.get("name"):
            self._form.fields[a["name"]] = a.get("value", "")
        elif tag == "button" and self._form is not None:
            self._button = True
        elif tag == "a" and "cell" in classes and "target" in classes and a.get("hx-get"):
            self.page.targets.append(a["hx-get"])
        elif tag == "p" and ("turn" in classes or "result" in classes):
            self._capture = "turn" if "turn" in classes else "result"
            self._depth = 0
        elif tag == "p" and self._capture:
            self._depth += 1
        elif tag == "div":
            self._divs.append("picked-actions" in classes)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form" and self._form is not None:
            (self.page.picked if any(self._divs) else self.page.forms).append(self._form)
            self._form = None
        elif tag == "div" and self._divs:
            self._divs.pop()
        elif tag == "button":
            self._button = False
        elif tag == "p" and self._capture:
            if self._depth:
                self._depth -= 1
            else:
                self._capture = None

    def handle_data(self, data: str) -> None:
        if self._button and self._form is not None:
            self._form.label += data
        if self._capture == "turn":
            self.page.turn += data
        elif self._capture == "result":
            self.page.result += data


def read_page(html: str) -> Page:
    parser = _TableParser()
    parser.feed(html)
    return parser.page


def test_the_page_reader_finds_forms_targets_and_the_turn() -> None:
    html = (
        '<p class="turn"><strong>Your decision</strong> · pay</p>'
        '<a href="?pos=1,2" hx-get="/games/7/?part=table&amp;pos=1,2" class="cell target">x</a>'
        '<a href="?pos=0,0" class="cell">y</a>'
        '<form method="post" action="/games/7/act"><input type="hidden" '
        'name="csrfmiddlewaretoken" value="t"><input type="hidden" name="action" '
        'value="{&quot;type&quot;: &quot;end&quot;}"><button>End</button></form>'
        '<form method="post" action="/logout"><button>Log out</button></form>'
        '<div class="picked-actions"><h2>On 1,2</h2><ul><li><form action="/games/7/act">'
        '<input type="hidden" name="action" value="{}"><button>Oust</button></form></li>'
        "</ul></div>"
    )
    page = read_page(html)
    assert page.turn == "Your decision · pay"
    assert page.targets == ["/games/7/?part=table&pos=1,2"]
    assert [(f.fields["action"], f.label) for f in page.forms] == [('{"type": "end"}', "End")]
    assert [(f.fields["action"], f.label) for f in page.picked] == [("{}", "Oust")]


# --- the actors ---------------------------------------------------------------------------


def expected_words(game: Game, seat: int) -> str:
    """What the notification telling ``seat`` must name, from the server's state now."""
    state = kinds.of(game).load(game.snapshot)
    kind = str(state.pending[-1][1])
    if seat != state.active and state.oust is not None:
        return "you are ousted"
    return DECISION_WORDS[kind]


@dataclass
class Tally:
    """What happened, for the assertions at the end."""

    moves: dict[int, list[int]] = field(default_factory=dict)  # seat -> versions it moved at
    titles: list[tuple[int, str]] = field(default_factory=list)  # (seat, notification title)
    decisions: Counter[str] = field(default_factory=Counter)  # what the notifications named
    told_back: int = 0  # told again at the table after automatic steps gave the decision back
    pages: int = 0
    own_cards_seen: int = 0
    secrets_checked: int = 0


@dataclass(frozen=True)
class Told:
    kind: str
    title: str
    url: str


def automatic_steps(game_id: int) -> int:
    return Move.objects.filter(game_id=game_id, seat__isnull=True).count()


class Actor(ABC):
    """A player who looks at the game only when a notification tells them to, then
    decides while the server's answer says the decision is theirs."""

    seat: int
    game_id: int
    tally: Tally
    finished: bool = False

    @abstractmethod
    def news(self) -> list[Told]:
        """The notifications that arrived since the last look, oldest first."""

    @abstractmethod
    def open(self, told: Told) -> bool:
        """Open the game as told; whether the decision is this seat's."""

    @abstractmethod
    def act(self) -> bool:
        """One decision from what was read; whether the next is this seat's too."""

    def heed(self, told: Told) -> None:
        """A notification must say what the server asks of this seat now."""
        game = Game.objects.get(pk=self.game_id)
        if told.kind == NotificationKind.GAME_FINISHED:
            assert game.status == GameStatus.FINISHED, told
            self.finished = True
            return
        assert told.kind == NotificationKind.YOUR_TURN, told
        assert game.to_act_seat == self.seat, (told.title, game.to_act_seat)
        words = expected_words(game, self.seat)
        assert words in told.title.lower(), (told.title, words)
        self.tally.titles.append((self.seat, told.title))
        self.tally.decisions[words] += 1

    def wake(self) -> bool:
        """Look at the notifications; play if told. Whether anything was told."""
        told = self.news()
        if not told:
            return False
        assert len(told) == 1, told  # told once when the decision passes to the seat (P-74)
        self.heed(told[0])
        mine = self.open(told[0])
        while mine:
            steps = automatic_steps(self.game_id)
            if not self.act():
                break  # the answer says the decision is not this seat's: wait to be told
            # Still this seat's decision. P-74: no notification after one's own atomic
            # action; one when automatic steps (a Redraw, the Court) gave it back.
            again = self.news()
            ran = automatic_steps(self.game_id) > steps
            assert [t.kind for t in again] == ([NotificationKind.YOUR_TURN] if ran else []), again
            for note in again:
                self.heed(note)
                self.tally.told_back += 1
        return True


class ApiBot(Actor):
    """A third-party bot: bearer token, JSON only, acts when its notifications say so."""

    def __init__(self, client: ApiClient, seat: int, game_id: int, tally: Tally) -> None:
        self.client, self.seat, self.game_id, self.tally = client, seat, game_id, tally
        self.rng = random.Random(BOT_RNG_SEEDS[seat])
        self.url = f"/api/v1/games/{game_id}/"
        self.view: dict[str, Any] = {}

    def news(self) -> list[Told]:
        """Unread notifications that ask something of it, oldest first, marked read."""
        answer = self.client.get("/api/v1/notifications?unread=true")
        assert answer.status_code == 200, answer.content[:300]
        mine = [n for n in answer.json()["results"] if n["game"] == self.game_id]
        for note in mine:
            read = self.client.post(f"/api/v1/notifications/{note['id']}/read")
            assert read.status_code == 200, read.content[:300]
        return [
            Told(n["kind"], n["title"], n["url"])
            for n in sorted(mine, key=lambda n: n["id"])
            if n["kind"] in TELLING
        ]

    def open(self, told: Told) -> bool:
        self.view = self.client.get(self.url).json()
        if told.kind == NotificationKind.GAME_FINISHED:
            assert self.view["status"] == "finished"
            return False
        assert self.view["to_act"] == self.seat, told
        assert self.view["legal_actions"], told
        return True

    def act(self) -> bool:
        view = self.view
        action = heuristic_bot(view, self.rng)  # from the JSON view it received
        answer = self.client.post(
            f"{self.url}actions", {"action": action, "version": view["version"]}, format="json"
        )
        assert answer.status_code == 200, answer.json()
        self.tally.moves.setdefault(self.seat, []).append(view["version"])
        self.view = answer.json()
        return bool(
            self.view["status"] == GameStatus.IN_PROGRESS and self.view["to_act"] == self.seat
        )


class WebPlayer(Actor):
    """A person at the web table: reads their email, opens its link, clicks."""

    def __init__(self, user: Any, seat: int, game_id: int, tally: Tally) -> None:
        self.user, self.seat, self.game_id, self.tally = user, seat, game_id, tally
        self.client = DjangoClient(enforce_csrf_checks=True)
        assert self.client.login(username=user.username, password="pw")
        self.rng = random.Random(WEB_RNG_SEED)
        self.emails_read = 0
        self.page = Page()

    def news(self) -> list[Told]:
        """New emails to this person, each with its site inbox entry."""
        mine = [m for m in mail.outbox if m.to == [self.user.email]]
        new, self.emails_read = mine[self.emails_read :], len(mine)
        told = []
        for email in new:
            pk = re.fullmatch(r"<notification-(\d+)@.*>", email.extra_headers["Message-ID"])
            assert pk is not None
            note = Notification.objects.get(pk=int(pk[1]), user=self.user)
            assert (note.game_id, note.title) == (self.game_id, email.subject)
            link = next(line for line in email.body.splitlines() if "/games/" in line)
            assert link == note.url
            told.append(Told(note.kind, email.subject, link))
        return told

    def open(self, told: Told) -> bool:
        response = self.client.get(urlsplit(told.url).path)
        assert response.status_code == 200
        return self.read(response.content.decode())

    def read(self, html: str) -> bool:
        """Read a table page; whether it asks this person to decide."""
        self.check_private(html)
        self.page = read_page(html)
        if "Game over" in self.page.turn:
            assert not self.page.forms
            return False
        return "Your decision" in self.page.turn

    def act(self) -> bool:
        return self.read(self.click(self.page).content.decode())

    def click(self, page: Page) -> Any:
        """One offered action: a button, or a highlighted card then one of its actions."""
        htmx = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "table"}
        choices: list[Form | str] = [*page.forms, *page.targets]
        assert choices, page.turn
        choice = self.rng.choice(choices)
        if isinstance(choice, str):
            picked = self.client.get(choice, **htmx)
            assert picked.status_code == 200
            html = picked.content.decode()
            self.check_private(html)
            forms = read_page(html).picked
            assert forms, f"no action listed for {choice}"
            choice = self.rng.choice(forms)
        assert choice.fields["csrfmiddlewaretoken"]
        version = int(choice.fields["version"])
        answer = self.client.post(choice.action, choice.fields, **htmx)
        assert answer.status_code == 200, answer.content[:500]
        assert 'role="alert"' not in answer.content.decode(), answer.content[:500]
        self.tally.moves.setdefault(self.seat, []).append(version)
        return answer

    def check_private(self, html: str) -> None:
        """No card of another seat's hand, event hand or private plot that this seat's own
        view does not hold; this seat's own hand is there (the check can fail)."""
        game = Game.objects.get(pk=self.game_id)
        state = kinds.of(game).load(game.snapshot)
        players = state_json(state)["players"]
        own_view = set(CARD_ID.findall(str(pax_view(state, self.seat))))
        others = {
            card
            for n, p in enumerate(players)
            if n != self.seat
            for card in [*p["hand"], *p["events"], *([p["plot"]] if p["plot"] else [])]
        }
        shown = set(CARD_ID.findall(html))
        leaked = (shown & others) - own_view
        assert not leaked, f"the web player's page shows {sorted(leaked)}"
        text = unescape(html)
        for card in others - own_view:  # nor by name
            known = DATA.luminaries.get(card) or DATA.plots.get(card)
            assert known is None or known.name not in text, f"the page names {card}"
        self.tally.pages += 1
        self.tally.secrets_checked += len(others - own_view)
        own_hand = set(players[self.seat]["hand"])
        if own_hand and game.status == GameStatus.IN_PROGRESS:
            assert own_hand <= shown, sorted(own_hand - shown)
            self.tally.own_cards_seen += len(own_hand)


def api_bot_account(username: str) -> tuple[ApiClient, Any]:
    """A third-party bot's account and token, as its owner makes them."""
    out = io.StringIO()
    call_command("issue_token", username, "--create", "--bot", stdout=out)
    token = out.getvalue().strip().splitlines()[-1]
    client = ApiClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    user = get_user_model().objects.get(username=username)
    assert user.player.is_bot
    return client, user


def test_two_api_bots_and_a_web_player_finish_a_pax_game_by_notification(
    make_user: Any, settings: SettingsWrapper
) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None, "actions": None},
    }
    settings.WEB_RATE_LIMITS = {}
    person = make_user("ada")  # with an email address: "your turn" is emailed
    game = game_with_seed(creator=person, seed=SEED, game_type="pax", player_count=3, rated=False)
    tally = Tally()
    web = WebPlayer(person, 0, game.pk, tally)
    bots: list[ApiBot] = []
    accounts = {0: person.pk}
    for seat, name in ((1, "bot-one"), (2, "bot-two")):
        client, user = api_bot_account(name)
        joined = client.post(f"/api/v1/games/{game.pk}/join")
        assert joined.status_code == 200, joined.json()
        assert joined.json()["my_seat"] == seat
        bots.append(ApiBot(client, seat, game.pk, tally))
        accounts[seat] = user.pk
    actors: list[Actor] = [web, *bots]

    wakes = 0
    while not all(actor.finished for actor in actors):
        told = [actor.wake() for actor in actors]  # each looks at its own notifications
        wakes += sum(told)
        game.refresh_from_db()
        assert any(told), f"nobody was told; the server waits on seat {game.to_act_seat}"
        assert wakes < MAX_WAKES, f"the game did not end in {MAX_WAKES} notifications"

    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    # The end as each saw it: "Game over" and the winners on the page, the API's result.
    assert "Game over" in web.page.turn
    assert not web.page.forms
    for bot in bots:
        assert bot.view["status"] == "finished"
        result = bot.view["result"]
        assert result == game.result
        assert result["reason"] in ("plot", "faction_scoring")
        assert result["winner_seats"]
        assert set(result["scores"]) == {"0", "1", "2"}
        assert "Winners" in web.page.result
        names = {0: "ada", 1: "bot-one #1", 2: "bot-two #2"}  # by name (P-85)
        for w in result["winner_seats"]:
            assert names[w] in web.page.result
    # Every player move in the database is one its actor made after being told.
    played: dict[int, list[int]] = {0: [], 1: [], 2: []}
    for move in Move.objects.filter(game=game, seat__isnull=False).order_by("seq"):
        assert move.actor_user_id == accounts[move.seat], (move.seq, move.actor_kind)
        played[move.seat].append(move.version_after - 1)
    assert played == {seat: tally.moves.get(seat, []) for seat in (0, 1, 2)}
    assert all(played.values())
    # The notifications named the decisions; the web player was ousted once at least.
    assert any(s == 0 and "You are ousted" in t for s, t in tally.titles), tally.titles
    assert {"your turn", "you are ousted", "oust card", "court", "event"} <= set(tally.decisions)
    assert tally.secrets_checked > 0
    assert tally.own_cards_seen > 0
    print(
        f"\npax by notification: {sum(map(len, played.values()))} player moves "
        f"{ {s: len(v) for s, v in played.items()} }, "
        f"{Move.objects.filter(game=game, seat=None).count()} automatic steps, "
        f"{wakes} notifications acted on ({tally.told_back} at the table), "
        f"{tally.pages} pages read, decisions told {dict(tally.decisions)}, result {game.result}"
    )
