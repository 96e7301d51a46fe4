"""The REST client (api.md): one method per endpoint, errors as exceptions.

Every request goes through :meth:`Client.request`, which

* waits and retries on ``429 throttled`` for the server's ``Retry-After`` seconds (at
  most ``max_rate_waits`` times, each wait capped at ``max_retry_after``), then raises
  :class:`RateLimited`; a repeatable request (below) answered ``503`` with a
  ``Retry-After`` (the server's database restarting) is waited out the same way;
* retries network failures (bounded, with backoff) when repeating is safe: reads, and
  actions, which always carry an ``Idempotency-Key`` so that a repeat is answered with the
  first result instead of acting twice;
* turns every error response into the exception for its ``code`` (``errors.py``).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any, Literal

import httpx

from indulgence_client.errors import RateLimited, TransportError, error_for
from indulgence_client.sse import EventStream
from indulgence_client.sse import retry_after as parse_retry_after

JsonDict = dict[str, Any]
View = JsonDict
Action = JsonDict
Status = Literal["open", "in_progress", "finished", "void"]
# Built-in bots: Indulgence's random, heuristic, ismcts; New Eleusis' random, novice,
# scientist (GET /api/v1/game-types/ lists each game's).
BotKind = str
GameType = str  # "indulgence" (the default), "eleusis", ... (GET /api/v1/game-types/)

API_PREFIX = "/api/v1"
DEFAULT_USER_AGENT = "indulgence-client/0.1"


class Client:
    """A bearer-token client for one server, e.g. ``Client("http://127.0.0.1:8000", token)``."""

    def __init__(
        self,
        server: str,
        token: str | None = None,
        *,
        timeout: float = 30.0,
        max_network_retries: int = 3,
        max_rate_waits: int = 5,
        max_retry_after: float = 60.0,
        backoff: float = 0.5,
        sleep: Callable[[float], None] = time.sleep,
        transport: httpx.BaseTransport | None = None,
        user_agent: str = DEFAULT_USER_AGENT,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.server = server.rstrip("/")
        self.max_network_retries = max_network_retries
        self.max_rate_waits = max_rate_waits
        self.max_retry_after = max_retry_after
        self.backoff = backoff
        self.sleep = sleep
        sent = {"Accept": "application/json", "User-Agent": user_agent, **(headers or {})}
        if token:
            sent["Authorization"] = f"Bearer {token}"
        self.http = httpx.Client(
            base_url=self.server, headers=sent, timeout=timeout, transport=transport
        )

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the transport ------------------------------------------------------------------

    def request(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        params: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        retry_network: bool | None = None,
    ) -> httpx.Response:
        """Send a request under ``/api/v1``; return the 2xx response or raise.

        ``retry_network`` (default: True for GET, or when an Idempotency-Key is sent) says
        whether a request whose fate is unknown after a network failure may be repeated.
        """
        url = path if path.startswith("/") else f"{API_PREFIX}/{path}"
        if retry_network is None:
            retry_network = method.upper() == "GET" or bool(
                headers and "Idempotency-Key" in headers
            )
        rate_waits = 0
        network_failures = 0
        while True:
            try:
                response = self.http.request(method, url, json=json, params=params, headers=headers)
            except httpx.TransportError as exc:
                # A connection never made can always be tried again; anything else only
                # when repeating cannot act twice.
                safe = retry_network or isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout)
                network_failures += 1
                if not safe or network_failures > self.max_network_retries:
                    raise TransportError(f"{method} {url} failed: {exc!r}") from exc
                self.sleep(min(self.backoff * 2 ** (network_failures - 1), 8.0))
                continue
            if response.status_code == 429:
                retry_after = _retry_after(response)
                if rate_waits < self.max_rate_waits and retry_after <= self.max_retry_after:
                    rate_waits += 1
                    self.sleep(retry_after)
                    continue
                raise _error(response, retry_after)
            if response.status_code == 503 and retry_network:
                # service_unavailable (e.g. the database restarting): nothing was done, and
                # the server says when to come back; a repeatable request waits that long.
                unavailable_for = parse_retry_after(response.headers.get("Retry-After"))
                if (
                    unavailable_for is not None
                    and rate_waits < self.max_rate_waits
                    and unavailable_for <= self.max_retry_after
                ):
                    rate_waits += 1
                    self.sleep(unavailable_for)
                    continue
            if response.status_code >= 400:
                raise _error(response)
            return response

    def _json(self, method: str, path: str, **kwargs: Any) -> Any:
        return self.request(method, path, **kwargs).json()

    # --- games ---------------------------------------------------------------------------

    def game_types(self) -> list[JsonDict]:
        """The games the server hosts: key, title, player counts, variants, bots."""
        types: list[JsonDict] = self._json("GET", "game-types/")
        return types

    def create_game(
        self,
        player_count: int,
        *,
        game_type: GameType = "indulgence",
        variant: str | None = None,
        bots: dict[int, BotKind] | None = None,
        rated: bool = True,
        seed: str | None = None,
        turn_timeout_seconds: int | None = None,
        options: JsonDict | None = None,
    ) -> View:
        """Create a game of ``game_type`` (you take seat 0); ``bots`` maps seats to
        built-in bots; ``variant`` None is the game's first; ``options`` are the game's
        own table settings (New Eleusis: hand_size, difficulty, ...)."""
        body: JsonDict = {"game_type": game_type, "player_count": player_count, "rated": rated}
        if variant is not None:
            body["variant"] = variant
        if options:
            body["options"] = options
        if bots:
            body["bots"] = [{"seat": seat, "bot": kind} for seat, kind in sorted(bots.items())]
        if seed is not None:
            body["seed"] = seed
        if turn_timeout_seconds is not None:
            body["turn_timeout_seconds"] = turn_timeout_seconds
        view: View = self._json("POST", "games/", json=body)
        return view

    def create_sandbox(
        self,
        *,
        seed: str,
        player_count: int = 3,
        game_type: GameType = "indulgence",
        variant: str | None = None,
        bot: BotKind = "random",
        turn_timeout_seconds: int | None = None,
        options: JsonDict | None = None,
    ) -> View:
        """An unrated game with a chosen seed against built-in bots: reproducible deals."""
        return self.create_game(
            player_count,
            game_type=game_type,
            variant=variant,
            bots={seat: bot for seat in range(1, player_count)},
            rated=False,
            seed=seed,
            turn_timeout_seconds=turn_timeout_seconds,
            options=options,
        )

    def list_games(
        self,
        *,
        status: Status | None = None,
        mine: bool = False,
        limit: int = 50,
        offset: int = 0,
        game_type: GameType | None = None,
    ) -> JsonDict:
        """One page: ``{"count", "next", "previous", "results": [summary, ...]}``."""
        params: dict[str, Any] = {"limit": limit, "offset": offset}
        if game_type:
            params["game_type"] = game_type
        if status:
            params["status"] = status
        if mine:
            params["mine"] = "true"
        page: JsonDict = self._json("GET", "games/", params=params)
        return page

    def iter_games(self, *, status: Status | None = None, mine: bool = False) -> Iterator[JsonDict]:
        """Every game summary, following the pages."""
        offset = 0
        while True:
            page = self.list_games(status=status, mine=mine, limit=200, offset=offset)
            yield from page["results"]
            offset += len(page["results"])
            if not page["next"] or not page["results"]:
                return

    def game(self, game_id: int) -> View:
        view: View = self._json("GET", f"games/{game_id}/")
        return view

    def join(self, game_id: int) -> View:
        view: View = self._json("POST", f"games/{game_id}/join")
        return view

    def abort(self, game_id: int, *, version: int | None = None) -> View:
        """Call off a game you created that no person has moved in, or a sandbox of yours:
        it becomes ``void``. Returns your view of it (409 ``abort_not_allowed`` when a
        person has moved in a game that is not a sandbox)."""
        body: JsonDict = {} if version is None else {"version": version}
        view: View = self._json("POST", f"games/{game_id}/abort", json=body)
        return view

    def undo(self, game_id: int, *, version: int) -> View:
        """Take back your last action where the game allows it (Pax Illuminaten's
        15.5.2: your view's ``can_undo``). ``version`` is the view's you saw. Returns
        your view after it (409 ``undo_not_available`` when nothing can be taken back)."""
        view: View = self._json("POST", f"games/{game_id}/undo", json={"version": version})
        return view

    def act(
        self,
        game_id: int,
        action: Action,
        *,
        version: int | None = None,
        idempotency_key: str | None = None,
    ) -> View:
        """Take an action; returns the new view. A fresh Idempotency-Key is made per call
        (network failures are retried with the same key: the action is applied once)."""
        key = idempotency_key or f"{game_id}-{version}-{uuid.uuid4().hex}"
        body: JsonDict = {"action": action}
        if version is not None:
            body["version"] = version
        view: View = self._json(
            "POST", f"games/{game_id}/actions", json=body, headers={"Idempotency-Key": key}
        )
        return view

    def moves(self, game_id: int) -> JsonDict:
        log: JsonDict = self._json("GET", f"games/{game_id}/moves")
        return log

    def export(self, game_id: int) -> JsonDict:
        record: JsonDict = self._json("GET", f"games/{game_id}/export")
        return record

    def dispute(self, game_id: int, reason: str) -> JsonDict:
        dispute: JsonDict = self._json("POST", f"games/{game_id}/disputes", json={"reason": reason})
        return dispute

    # --- players -------------------------------------------------------------------------

    def leaderboard(
        self,
        *,
        game_type: GameType = "indulgence",
        variant: str | None = None,
        player_count: int = 4,
        limit: int = 100,
    ) -> JsonDict:
        """One rating pool: a game, a variant (None: the game's first), a player count."""
        params: dict[str, Any] = {
            "game_type": game_type,
            "player_count": player_count,
            "limit": limit,
        }
        if variant is not None:
            params["variant"] = variant
        board: JsonDict = self._json("GET", "leaderboard", params=params)
        return board

    def me(self) -> JsonDict:
        me: JsonDict = self._json("GET", "me")
        return me

    # --- disputes ---------------------------------------------------------------------------

    def disputes(self) -> list[JsonDict]:
        """Disputes on games you are seated at, newest first (``dispute`` opens one)."""
        listed: JsonDict = self._json("GET", "disputes/")
        disputes: list[JsonDict] = listed["disputes"]
        return disputes

    def get_dispute(self, dispute_id: int) -> JsonDict:
        """Where a dispute stands: open, under_review, upheld or dismissed."""
        dispute: JsonDict = self._json("GET", f"disputes/{dispute_id}")
        return dispute

    # --- notifications (play by notification: docs/notifications.md) ------------------------

    def notifications(self, *, unread: bool = False, limit: int = 50, offset: int = 0) -> JsonDict:
        """One page of your notifications, newest first: ``{"count", "next", "previous",
        "results"}``; ``unread=True`` lists the unread ones only."""
        params: dict[str, Any] = {"limit": limit, "offset": offset}
        if unread:
            params["unread"] = "true"
        page: JsonDict = self._json("GET", "notifications", params=params)
        return page

    def mark_read(self, notification_id: int | None = None) -> JsonDict:
        """Mark one notification read (or every one, without an id): ``{"marked_read",
        "unread"}``. Marking twice is harmless, so a lost answer is retried."""
        if notification_id is None:
            path = "notifications/read"
        else:
            path = f"notifications/{notification_id}/read"
        answer: JsonDict = self._json("POST", path, retry_network=True)
        return answer

    def preferences(self) -> JsonDict:
        """Your notification preferences (email per kind, quiet hours)."""
        preferences: JsonDict = self._json("GET", "notifications/preferences")
        return preferences

    def update_preferences(self, **changes: Any) -> JsonDict:
        """Change some preferences, e.g. ``update_preferences(email_your_turn=False,
        quiet_hours={"start": "22:00", "end": "07:00", "timezone": "Asia/Tokyo"})``
        (``quiet_hours=None`` turns them off); returns them all."""
        preferences: JsonDict = self._json(
            "PATCH", "notifications/preferences", json=changes, retry_network=True
        )
        return preferences

    # --- webhooks ------------------------------------------------------------------------------

    def webhooks(self) -> list[JsonDict]:
        """Your webhooks (without their secrets)."""
        hooks: list[JsonDict] = self._json("GET", "webhooks")
        return hooks

    def create_webhook(self, url: str, *, kinds: list[str] | None = None) -> JsonDict:
        """Register ``url`` for notifications of ``kinds`` (default: every kind). The answer
        carries the signing ``secret``, shown this once only."""
        body: JsonDict = {"url": url}
        if kinds is not None:
            body["kinds"] = kinds
        hook: JsonDict = self._json("POST", "webhooks", json=body)
        return hook

    def webhook(self, webhook_id: int) -> JsonDict:
        hook: JsonDict = self._json("GET", f"webhooks/{webhook_id}")
        return hook

    def delete_webhook(self, webhook_id: int) -> None:
        self.request("DELETE", f"webhooks/{webhook_id}")

    def webhook_deliveries(self, webhook_id: int, *, limit: int = 50, offset: int = 0) -> JsonDict:
        """One page of a webhook's delivery attempts, newest first (status, HTTP code)."""
        params = {"limit": limit, "offset": offset}
        page: JsonDict = self._json("GET", f"webhooks/{webhook_id}/deliveries", params=params)
        return page

    # --- live streams ----------------------------------------------------------------------

    def game_stream(
        self, game_id: int, *, last_event_id: int | None = None, **options: Any
    ) -> EventStream:
        """The game's events (dicts with ``type``, ``game``, ``version``...), resuming."""
        return EventStream(
            self.http,
            f"{API_PREFIX}/games/{game_id}/stream",
            last_event_id=last_event_id,
            **options,
        )

    def account_stream(self, *, last_event_id: int | None = None, **options: Any) -> EventStream:
        """Your account's events (``your_turn``, ``game_started``, ``game_finished``...)."""
        return EventStream(
            self.http, f"{API_PREFIX}/stream", last_event_id=last_event_id, **options
        )


def _retry_after(response: httpx.Response) -> float:
    delay = parse_retry_after(response.headers.get("Retry-After"))
    return 1.0 if delay is None else delay


def _error(response: httpx.Response, retry_after: float | None = None) -> Exception:
    try:
        body = response.json()
    except ValueError:
        body = None
    if response.status_code == 429:
        error = error_for(429, body, retry_after=retry_after)
        assert isinstance(error, RateLimited)
        return error
    return error_for(response.status_code, body)
