"""``POST /api/v1/games/{id}/undo``: take back your last action where the game allows it
(Pax Illuminaten's 15.5.2; docs/pax.md P-79, P-80; api.md). Beside ``games.api.views``
(whose endpoints it shares everything with) to keep that module within its size."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle

from games import services
from games.api import examples_pax
from games.api import serializers as s
from games.api.schema import WRITE_CODES, errors
from games.api.throttles import ActionThrottle
from games.api.views import GAME_ID, ApiView, _user, _valid


class GameUndoView(ApiView):
    def get_throttles(self) -> list[BaseThrottle]:
        return [*super().get_throttles(), ActionThrottle()]

    @extend_schema(
        operation_id="games_undo",
        summary="Take back your last action",
        description=(
            "Pax Illuminaten only (15.5.2): the active player takes back their own last "
            "atomic action in their own turn, one per request, back to the last point "
            "where hidden information was revealed (a draw, a Scout, an Expel of a "
            "face-down card, an Oust reveal, an event draw); a move by another seat, a "
            "bot, the autopilot or an automatic step closes the window too. Your view's "
            '`can_undo` says whether you may now. Body: `{"version": n}` (required; '
            "409 version_conflict when the game moved on). The move taken back is "
            "archived (it leaves the move log, the export and the replay) and every "
            "seat's stream gets a `move_undone` event. 409 undo_not_available when "
            "nothing can be taken back, and for games without undo (Indulgence, New "
            "Eleusis). Answers 200 with your view after the undo."
        ),
        parameters=[GAME_ID],
        request=s.UndoRequest,
        examples=[examples_pax.UNDO_REQUEST_EXAMPLE, examples_pax.VIEW_EXAMPLE],
        responses={
            200: OpenApiResponse(s.GameView, description="Your view after the undo."),
            **errors(
                "invalid_request",
                "not_seated",
                "forbidden",
                "not_found",
                "version_conflict",
                "game_not_active",
                "undo_not_available",
                *WRITE_CODES,
            ),
        },
        tags=["games"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        body = _valid(s.UndoRequest, request.data or {})
        result = services.move_undo(
            game_id=game_id, user=_user(request), expected_version=body["version"]
        )
        return Response(result.view)
