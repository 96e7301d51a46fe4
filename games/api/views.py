"""The API's endpoints (api.md). Each one parses its input with a serializer, calls one
service or selector, and returns what it got: no rules, no model fields, no game state
except ``games.selectors.game_view``'s.

Authentication, permissions, throttles and the error shape come from the settings
(``REST_FRAMEWORK``); see :mod:`games.api.permissions` for who may call what.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from games import disputes, mail_limits, selectors, services
from games.api import examples, examples_eleusis, examples_pax
from games.api import serializers as s
from games.api.pagination import Pagination
from games.api.parsers import LimitedJSONParser, refuse_oversized
from games.api.permissions import Authenticated, SessionOnly, TokenScopes, token_scopes
from games.api.schema import IDEMPOTENCY_KEY, READ_CODES, WRITE_CODES, ApiAutoSchema, errors
from games.api.throttles import ActionThrottle, throttle_waits
from games.models import ApiToken

GAME_ID = OpenApiParameter("game_id", int, OpenApiParameter.PATH, description="The game's id.")


class ApiView(APIView):
    """What every endpoint shares: JSON bodies of bounded size, the schema class."""

    parser_classes = (LimitedJSONParser,)
    schema = ApiAutoSchema()
    # True on the second route of an endpoint (the other trailing slash): left out of the
    # schema by games.api.schema.drop_alternate_routes.
    alternate_route = False

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        # A method the endpoint lacks is 405 for everyone, before any credential check.
        method = (request.method or "").lower()
        if method not in self.http_method_names or not hasattr(self, method):
            raise exceptions.MethodNotAllowed(request.method or "")
        refuse_oversized(request)  # by its announced length, before reading any of it
        super().initial(request, *args, **kwargs)

    def check_throttles(self, request: Request) -> None:
        # As DRF's, with the Redis-counted throttles in one round trip (games.api.throttles).
        refused = throttle_waits(self.get_throttles(), request, self)
        if refused:
            wait = max((w for w in refused if w is not None), default=None)
            self.throttled(request, wait)  # type: ignore[arg-type]  # DRF accepts None

    def allows_anonymous(self, method: str) -> bool:
        """Whether an anonymous caller may use ``method`` here (for the schema)."""
        signed_in_only = (Authenticated, SessionOnly)
        if any(isinstance(p, signed_in_only) for p in self.get_permissions()):
            return False
        return method.upper() in permissions.SAFE_METHODS


def _valid(serializer_class: type[s.serializers.Serializer[Any]], data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _action_body(data: Any) -> dict[str, Any]:
    """``ActionRequest``'s validated data. A body of the usual shape, an object ``action``
    with string keys and a non-negative integer or null ``version`` (or none), is taken as
    it is, as the serializer would take it, without building one (a move's hot path);
    anything else goes through the serializer, for its exact errors."""
    if type(data) is dict:
        action, version = data.get("action"), data.get("version")
        if (
            type(action) is dict
            and all(type(key) is str for key in action)
            and (version is None or (type(version) is int and version >= 0))
        ):
            body: dict[str, Any] = {"action": dict(action)}
            if "version" in data:
                body["version"] = version
            return body
    return _valid(s.ActionRequest, data)


def _user(request: Request) -> User:
    """The signed-in caller (the permissions let only signed-in callers reach writes)."""
    user = request.user
    assert isinstance(user, User)
    return user


def _idempotency_key(request: Request) -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not 1 <= len(key) <= s.MAX_IDEMPOTENCY_KEY or not all(33 <= ord(c) <= 126 for c in key):
        raise exceptions.ValidationError(
            {
                "Idempotency-Key": [
                    f"Must be 1 to {s.MAX_IDEMPOTENCY_KEY} printable ASCII characters "
                    "without spaces."
                ]
            }
        )
    return key


# --- games -------------------------------------------------------------------------------


class GamesView(ApiView):
    def get_throttles(self) -> list[BaseThrottle]:
        # Creating a game with invitations emails each invitee (games.mail_limits).
        return [*super().get_throttles(), mail_limits.ChallengeThrottle()]

    @extend_schema(
        operation_id="games_list",
        examples=[examples.GAME_LIST_EXAMPLE],
        summary="List games",
        description=(
            "Newest first, paginated with limit/offset. Anyone may list games; `mine=true` "
            "(only games you sit at) needs authentication."
        ),
        parameters=[
            s.GameListQuery,
            OpenApiParameter("limit", int, description="Page size (default 50, at most 200)."),
            OpenApiParameter("offset", int, description="How many games to skip."),
        ],
        responses={200: s.GamePageResponse, **errors("invalid_request", *READ_CODES)},
        tags=["games"],
    )
    def get(self, request: Request) -> Response:
        query = _valid(s.GameListQuery, request.query_params)
        if query["mine"] and not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        games = selectors.game_list(
            user=request.user,
            status=query.get("status"),
            mine=query["mine"],
            game_type=query.get("game_type"),
        )
        paginator = Pagination()
        page = paginator.paginate_queryset(games, request, view=self) or []
        summaries = [selectors.game_summary(game=game, user=request.user) for game in page]
        return paginator.get_paginated_response(summaries)

    @extend_schema(
        operation_id="games_create",
        summary="Create a game",
        description=(
            "`game_type` (GET /api/v1/game-types/; omitted: indulgence) says which game; "
            "`player_count`, `variant`, `bots` and `options` are checked against that "
            "game's entry (400 invalid_request naming the allowed values). You take seat 0; "
            "`bots` fills other seats with built-in bots; `invite` challenges accounts by "
            "username to the open seats. The game starts by itself when every seat is "
            "filled. Returns your view of the new game."
        ),
        request=s.GameCreateRequest,
        responses={
            201: OpenApiResponse(s.GameView, description="Your view of the new game."),
            **errors("invalid_request", "unknown_bot", *WRITE_CODES),
        },
        examples=[
            *examples.CREATE_EXAMPLES,
            *examples_eleusis.CREATE_EXAMPLES,
            *examples_pax.CREATE_EXAMPLES,
            examples.VIEW_EXAMPLE,
            examples_eleusis.VIEW_EXAMPLE,
            examples_pax.VIEW_EXAMPLE,
        ],
        tags=["games"],
    )
    def post(self, request: Request) -> Response:
        body = _valid(s.GameCreateRequest, request.data)
        user = _user(request)
        game = services.game_create(
            creator=user,
            game_type=body["game_type"],
            options=body.get("options"),
            player_count=body["player_count"],
            variant=body.get("variant"),
            turn_timeout_seconds=body.get("turn_timeout_seconds"),
            bots=[(bot["seat"], bot["bot"]) for bot in body.get("bots", [])],
            rated=body["rated"],
            seed=body.get("seed"),
            invite=body.get("invite", []),
        )
        view = selectors.game_view(game=game, user=user)
        return Response(
            view, status=status.HTTP_201_CREATED, headers={"Location": f"/api/v1/games/{game.pk}/"}
        )


class GameDetailView(ApiView):
    @extend_schema(
        operation_id="games_retrieve",
        summary="Your view of a game",
        description=(
            "Seated players get their seat's view (their cards, their legal actions); "
            "everyone else, anonymous callers included, gets the spectator's view."
        ),
        parameters=[GAME_ID],
        responses={200: s.GameView, **errors("not_found", *READ_CODES)},
        examples=[examples.VIEW_EXAMPLE, examples_eleusis.VIEW_EXAMPLE, examples_pax.VIEW_EXAMPLE],
        tags=["games"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.game_get(game_id=game_id)
        return Response(selectors.game_view(game=game, user=request.user))


class GameJoinView(ApiView):
    @extend_schema(
        operation_id="games_join",
        examples=[examples.JOIN_EXAMPLE],
        summary="Take the first free seat",
        description="The game starts by itself when the last seat is taken.",
        parameters=[GAME_ID],
        request=None,
        responses={
            200: OpenApiResponse(s.GameView, description="Your view of the game."),
            **errors("not_found", "game_full", "already_seated", "not_open", *WRITE_CODES),
        },
        tags=["games"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        user = _user(request)
        game = services.game_join(game_id=game_id, user=user)
        return Response(selectors.game_view(game=game, user=user))


class GameActionsView(ApiView):
    def get_throttles(self) -> list[BaseThrottle]:
        return [*super().get_throttles(), ActionThrottle()]

    @extend_schema(
        operation_id="games_actions_create",
        summary="Take an action",
        description=(
            "Send one of your view's `legal_actions` (an entry with a `template` describes "
            "a family of actions: fill it in, e.g. New Eleusis' string of 2 to 4 cards or a "
            "rule's source), and the view's `version` so that a decision made on a stale "
            "view is refused (409 version_conflict) instead of applied. A refused action "
            "changes nothing: 400 illegal_action with the game's own refusal code as "
            "`reason`, or 409 not_your_turn. New Eleusis lets the prophet set a standing "
            "prophecy and the people seated vote to end the game between rounds while "
            "another seat is to act. With an `Idempotency-Key`, a repeated request returns "
            "the first result instead of acting twice."
        ),
        parameters=[GAME_ID, IDEMPOTENCY_KEY],
        request=s.ActionRequest,
        responses={
            200: OpenApiResponse(s.GameView, description="Your view after the action."),
            **errors(
                "invalid_request",
                "illegal_action",
                "not_seated",
                "forbidden",
                "not_found",
                "not_your_turn",
                "version_conflict",
                "game_not_active",
                "idempotency_key_reused",
                *WRITE_CODES,
            ),
        },
        examples=[
            *examples.ACTION_EXAMPLES,
            *examples_eleusis.ACTION_EXAMPLES,
            *examples_pax.ACTION_EXAMPLES,
            examples.VIEW_EXAMPLE,
            examples_eleusis.VIEW_EXAMPLE,
            examples_pax.VIEW_EXAMPLE,
        ],
        tags=["games"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        body = _action_body(request.data)
        key = _idempotency_key(request)
        result = services.action_submit(
            game_id=game_id,
            user=_user(request),
            action=body["action"],
            expected_version=body.get("version"),
            idempotency_key=key,
        )
        headers = {"Idempotent-Replayed": "true"} if result.replayed else {}
        return Response(result.view, headers=headers)


class GameAbortView(ApiView):
    @extend_schema(
        operation_id="games_abort",
        summary="Abort a game nobody played",
        description=(
            "The game's creator calls it off: it becomes `void` (nobody is to act any "
            "more; a `game_voided` stream event with `aborted: true`). Allowed while the "
            "game is open or in progress, when no person has moved in it yet (moves of "
            "built-in bots do not count), and for sandbox games (chosen seed) at any "
            'time. Body optional: `{"version": n}` refuses the abort if the game moved '
            "on (409 version_conflict). Answers 200 with your view of the void game."
        ),
        parameters=[GAME_ID],
        request=s.AbortRequest,
        examples=[examples.ABORT_REQUEST_EXAMPLE, examples.ABORT_EXAMPLE],
        responses={
            200: OpenApiResponse(s.GameView, description="Your view of the void game."),
            **errors(
                "invalid_request",
                "forbidden",
                "not_found",
                "version_conflict",
                "game_not_active",
                "abort_not_allowed",
                *WRITE_CODES,
            ),
        },
        tags=["games"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        body = _valid(s.AbortRequest, request.data or {})
        user = _user(request)
        game = services.game_abort(game_id=game_id, user=user, expected_version=body.get("version"))
        return Response(selectors.game_view(game=game, user=user))


class GameMovesView(ApiView):
    @extend_schema(
        operation_id="games_moves_list",
        summary="The public move log",
        description=(
            "Every step so far, in order, as the caller may see it: cards played face down "
            "in the trick still being played are null (except your own). "
            '`{"type": "advance"}` steps (seat null) settle a hand and deal the next.'
        ),
        parameters=[GAME_ID],
        responses={200: s.MovesResponse, **errors("not_found", *READ_CODES)},
        examples=[examples.MOVES_EXAMPLE],
        tags=["games"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.game_get(game_id=game_id)
        moves = selectors.game_moves_public(game=game, user=request.user)
        return Response({"id": game.pk, "version": game.version, "moves": moves})


class GameExportView(ApiView):
    @extend_schema(
        operation_id="games_export_retrieve",
        examples=[
            examples.EXPORT_EXAMPLE,
            examples_eleusis.EXPORT_EXAMPLE,
            examples_pax.EXPORT_EXAMPLE,
        ],
        summary="The full record",
        description=(
            "The game's record as its rules fix it (Indulgence: seed, every deal, trick and "
            "payment; New Eleusis: NE-29.3's eleusis-record-1, which its `verify` checks; "
            "Pax Illuminaten: H.3's pax-record/1, checked by replaying its moves), "
            "with the accounts and the move log: published when the game is finished (or "
            "void). Before that, only staff reviewing an open dispute on the game, who do "
            "not play in it, may read it; each such read is in the audit log."
        ),
        parameters=[GAME_ID],
        responses={
            200: s.GameExport,
            **errors("not_found", "game_not_finished", "forbidden", *READ_CODES),
        },
        tags=["games"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.game_get(game_id=game_id)
        opened = not selectors.record_published(game)
        if opened:  # staff inside a dispute case only, audited (refuses everyone else)
            disputes.running_record_open(game=game, user=request.user, via="export")
        return Response(selectors.game_export(game=game, opened_for_case=opened))


class GameDisputesView(ApiView):
    def get_throttles(self) -> list[BaseThrottle]:
        # A dispute emails every seated player (games.mail_limits).
        return [*super().get_throttles(), mail_limits.DisputeThrottle()]

    @extend_schema(
        operation_id="games_disputes_create",
        summary="Dispute a game",
        description=(
            "Seated players may ask staff to review a game in progress, or up to 7 days "
            "after it ended."
        ),
        parameters=[GAME_ID],
        request=s.DisputeRequest,
        responses={
            201: s.DisputeResponse,
            **errors(
                "invalid_request", "not_seated", "not_found", "dispute_not_allowed", *WRITE_CODES
            ),
        },
        examples=[examples.DISPUTE_REQUEST_EXAMPLE, examples.DISPUTE_EXAMPLE],
        tags=["games"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        body = _valid(s.DisputeRequest, request.data)
        dispute = services.dispute_create(
            game_id=game_id, user=_user(request), reason=body["reason"]
        )
        return Response(
            {
                "id": dispute.pk,
                "status": dispute.status,
                "reason": dispute.reason,
                "created_at": dispute.created_at.isoformat(),
            },
            status=status.HTTP_201_CREATED,
        )


# --- players -----------------------------------------------------------------------------


class LeaderboardView(ApiView):
    @extend_schema(
        operation_id="leaderboard_retrieve",
        examples=[examples.LEADERBOARD_EXAMPLE],
        summary="Ratings of one pool",
        description=(
            "OpenSkill ratings per game, variant and player count, best first (public). "
            "`game_type` omitted: indulgence; `variant` omitted: the game's first; "
            "`player_count` omitted: 4."
        ),
        parameters=[s.LeaderboardQuery],
        responses={200: s.LeaderboardResponse, **errors("invalid_request", *READ_CODES)},
        tags=["players"],
    )
    def get(self, request: Request) -> Response:
        query = _valid(s.LeaderboardQuery, request.query_params)
        pool = selectors.leaderboard_pool(
            game_type=query["game_type"],
            variant=query.get("variant"),
            player_count=query.get("player_count"),
        )
        entries = selectors.leaderboard(**pool, limit=query["limit"])
        return Response({**pool, "entries": entries})


class GameTypesView(ApiView):
    @extend_schema(
        operation_id="game_types_list",
        examples=[examples_eleusis.GAME_TYPES_EXAMPLE],
        summary="The games this server hosts",
        description=(
            "Each game's key (the `game_type` of every other endpoint), title, player "
            "counts (and which are rated), variants (the first is the default), the "
            "built-in bots that may take a seat, and its rules page (public)."
        ),
        responses={200: s.GameTypeResponse(many=True), **errors(*READ_CODES)},
        tags=["games"],
    )
    def get(self, request: Request) -> Response:
        return Response(selectors.game_types())


class MeView(ApiView):
    permission_classes = (Authenticated, TokenScopes)

    @extend_schema(
        operation_id="me_retrieve",
        examples=[examples.ME_EXAMPLE],
        summary="Who you are",
        description="The caller's account, and how it authenticated (check a token with this).",
        responses={200: s.MeResponse, **errors(*READ_CODES)},
        tags=["players"],
    )
    def get(self, request: Request) -> Response:
        user = _user(request)
        player = selectors.player_of(user=user)  # read-only: no profile yet is fine
        return Response(
            {
                "username": user.get_username(),
                "display_name": str(player) if player else user.get_username(),
                "is_bot": bool(player and player.is_bot),
                "language": player.language if player else "en",
                "is_staff": bool(getattr(user, "is_staff", False)),
                "auth": "token" if isinstance(request.auth, ApiToken) else "session",
                "scopes": sorted(token_scopes(request)),
            }
        )


# --- tokens ------------------------------------------------------------------------------


def _token_entry(token: ApiToken) -> dict[str, Any]:
    return {
        "id": token.pk,
        "name": token.name,
        "prefix": token.prefix,
        "scopes": list(token.scopes),
        "created_at": token.created_at.isoformat(),
        "last_used_at": token.last_used_at.isoformat() if token.last_used_at else None,
        "revoked_at": token.revoked_at.isoformat() if token.revoked_at else None,
    }


TOKEN_CODES = ("not_authenticated", "session_required")


class TokensView(ApiView):
    permission_classes = (SessionOnly,)

    @extend_schema(
        operation_id="tokens_list",
        examples=[examples.TOKEN_LIST_EXAMPLE],
        summary="Your API tokens",
        description="Newest first, revoked ones included. Needs the web session.",
        parameters=[
            OpenApiParameter("limit", int, description="Page size (default 50, at most 200)."),
            OpenApiParameter("offset", int, description="How many tokens to skip."),
        ],
        responses={200: s.TokenPageResponse, **errors(*TOKEN_CODES)},
        tags=["tokens"],
    )
    def get(self, request: Request) -> Response:
        tokens = selectors.tokens_of(user=_user(request))
        paginator = Pagination()
        page = paginator.paginate_queryset(tokens, request, view=self) or []
        return paginator.get_paginated_response([_token_entry(token) for token in page])

    @extend_schema(
        operation_id="tokens_create",
        summary="Create an API token",
        description="The response carries the token itself: it is shown this once only.",
        request=s.TokenCreateRequest,
        responses={
            201: s.TokenCreatedResponse,
            **errors("invalid_request", "csrf_failed", "malformed_json", *TOKEN_CODES),
        },
        examples=[examples.TOKEN_REQUEST_EXAMPLE, examples.TOKEN_EXAMPLE],
        tags=["tokens"],
    )
    def post(self, request: Request) -> Response:
        body = _valid(s.TokenCreateRequest, request.data)
        token, raw = services.token_issue(
            user=_user(request), name=body["name"], scopes=body["scopes"]
        )
        return Response({**_token_entry(token), "token": raw}, status=status.HTTP_201_CREATED)


class TokenDetailView(ApiView):
    permission_classes = (SessionOnly,)

    @extend_schema(
        operation_id="tokens_destroy",
        summary="Revoke an API token",
        description="Requests with the token are refused from now on (401).",
        parameters=[OpenApiParameter("token_id", int, OpenApiParameter.PATH)],
        responses={204: None, **errors("not_found", "csrf_failed", *TOKEN_CODES)},
        tags=["tokens"],
    )
    def delete(self, request: Request, token_id: int) -> Response:
        services.token_revoke(token_id=token_id, user=_user(request))
        return Response(status=status.HTTP_204_NO_CONTENT)
