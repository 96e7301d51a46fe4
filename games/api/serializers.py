"""Request parsing and the documented response shapes.

Request serializers only check a body's shape and types; the services decide everything
else (a seed on a rated game, an unknown bot, whether an action is legal) and say why.
Response serializers never serialize anything: the views return the selectors' dicts
as they are (only ``games.selectors.game_view`` carries game state to a player). They
exist to describe those dicts in the OpenAPI schema, and ``tests/api/test_schema.py``
checks them against real responses.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from games import kinds, services
from games.api.shapes_eleusis import EleusisExportResponse, EleusisGameViewResponse
from games.api.shapes_indulgence import (  # noqa: F401 (read through this module)
    ActionShape,
    CurrentTrickShape,
    EdictShape,
    ExportResponse,
    FlorinAdjustmentShape,
    GameViewResponse,
    PaymentShape,
    PendingTieShape,
    PlayShape,
    RecordHandShape,
    RecordMoveShape,
    RecordSeatShape,
    ResultShape,
    SeatShape,
    SettlementShape,
    SinDecisionShape,
    TieChoiceShape,
    TrickShape,
)
from games.api.shapes_pax import PaxExportResponse, PaxGameViewResponse
from games.models import DisputeStatus, GameStatus, TokenScope

BOT_KINDS = ["random", "heuristic", "ismcts"]
MAX_DISPUTE_REASON = 4000
MAX_IDEMPOTENCY_KEY = 128


# --- requests -------------------------------------------------------------------------


def _game_type_of(serializer: serializers.Serializer[Any]) -> str | None:
    """The game a request names (``game_type``, default Indulgence), or None when the
    serializer has no data (the schema is being generated) or names no known game."""
    data = getattr(serializer, "initial_data", None)
    if data is None or not hasattr(data, "get"):
        return None
    key = data.get("game_type") or kinds.DEFAULT  # blank is missing, as DRF reads forms
    return key if isinstance(key, str) and key in kinds.KINDS else None


def _all_counts(rated: bool = False) -> list[int]:
    counts = {
        n
        for kind in kinds.KINDS.values()
        for n in (kind.meta.rated_player_counts if rated else kind.meta.player_counts)
    }
    return sorted(counts)


def _all_variants() -> list[str]:
    return list(dict.fromkeys(v for kind in kinds.KINDS.values() for v in kind.meta.variants))


ALL_VARIANTS = _all_variants()  # the schema's AnyVariantEnum (settings.SPECTACULAR_SETTINGS)
GAME_TYPE_HELP = (
    "The game: a key of GET /api/v1/game-types/ (indulgence, eleusis, pax). Omitted: indulgence."
)


class BotSeatRequest(serializers.Serializer[dict[str, Any]]):
    seat = serializers.IntegerField(min_value=1, max_value=9, help_text="1..player_count-1.")
    bot = serializers.CharField(
        max_length=32,
        help_text="A built-in bot of the game (GET /api/v1/game-types/ lists them; Indulgence: "
        f"{', '.join(BOT_KINDS)}); otherwise 400 unknown_bot.",
    )


class GameCreateRequest(serializers.Serializer[dict[str, Any]]):
    """``player_count`` and ``variant`` are checked against the game's entry of
    GET /api/v1/game-types/ (the schema lists every game's values)."""

    game_type = serializers.ChoiceField(
        choices=list(kinds.KINDS), default=kinds.DEFAULT, help_text=GAME_TYPE_HELP
    )
    player_count = serializers.ChoiceField(choices=_all_counts())
    variant = serializers.ChoiceField(
        choices=_all_variants(),
        required=False,
        help_text="One of the game's variants; omitted: its first (Indulgence: basic).",
    )
    options = serializers.DictField(
        required=False,
        help_text="The game's own table settings (New Eleusis: hand_size, sudden_death, "
        "sudden_death_prophet, round_limit, difficulty, deadlines, sanity_walks, max_turns; "
        "Indulgence takes none).",
    )
    turn_timeout_seconds = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=services.MIN_TURN_TIMEOUT_SECONDS,
        max_value=services.MAX_TURN_TIMEOUT_SECONDS,
        help_text="Seconds each player has to act (60 to 2592000); omitted: no limit.",
    )
    bots = BotSeatRequest(many=True, required=False, help_text="Seats given to built-in bots.")
    rated = serializers.BooleanField(default=True)
    seed = serializers.CharField(
        required=False,
        allow_null=True,
        max_length=128,
        help_text="Unrated games only: a chosen seed makes the deals reproducible and the "
        "game a sandbox (every other seat a bot; nobody may join or be invited).",
    )
    invite = serializers.ListField(
        child=serializers.CharField(max_length=150),
        required=False,
        max_length=9,
        help_text=(
            "Usernames to challenge to the open seats: each gets a `challenge` notification "
            "and account stream event, and accepts by joining. Active accounts only, not "
            "yourself, each once, at most the seats not taken by you or bots. The seats stay "
            "open to anyone."
        ),
    )

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = dict(super().get_fields())
        key = _game_type_of(self)
        if key is not None:  # a request: the game's own values, with its own messages
            meta = kinds.get(key).meta
            fields["player_count"] = serializers.ChoiceField(choices=list(meta.player_counts))
            fields["variant"] = serializers.ChoiceField(choices=list(meta.variants), required=False)
        return fields


class ActionRequest(serializers.Serializer[dict[str, Any]]):
    action = serializers.DictField(
        help_text="One of the view's legal_actions, e.g. {'type': 'play', 'card': 'M7'}."
    )
    version = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        help_text="The view's version you decided on; a stale one is refused (409).",
    )


class AbortRequest(serializers.Serializer[dict[str, Any]]):
    version = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        help_text="The view's version you saw; a stale one is refused (409). Optional.",
    )


class UndoRequest(serializers.Serializer[dict[str, Any]]):
    version = serializers.IntegerField(
        min_value=0,
        help_text=(
            "The view's version you saw (required): a stale one is refused (409), so a "
            "repeated request never takes back a second action."
        ),
    )


class DisputeRequest(serializers.Serializer[dict[str, Any]]):
    reason = serializers.CharField(max_length=MAX_DISPUTE_REASON, help_text="What went wrong.")


class GameListQuery(serializers.Serializer[dict[str, Any]]):
    game_type = serializers.ChoiceField(
        choices=list(kinds.KINDS), required=False, help_text="Only games of this game."
    )
    status = serializers.ChoiceField(choices=GameStatus.choices, required=False)
    mine = serializers.BooleanField(
        default=False, help_text="Only games you sit at (needs authentication)."
    )


class LeaderboardQuery(serializers.Serializer[dict[str, Any]]):
    """A rating pool: a game, one of its variants and one of its rated player counts."""

    game_type = serializers.ChoiceField(
        choices=list(kinds.KINDS), default=kinds.DEFAULT, help_text=GAME_TYPE_HELP
    )
    variant = serializers.ChoiceField(
        choices=_all_variants(), required=False, help_text="Omitted: the game's first."
    )
    player_count = serializers.ChoiceField(
        choices=_all_counts(rated=True), required=False, help_text="Omitted: 4."
    )
    limit = serializers.IntegerField(min_value=1, max_value=100, default=100)

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = dict(super().get_fields())
        key = _game_type_of(self)
        if key is not None:
            meta = kinds.get(key).meta
            fields["variant"] = serializers.ChoiceField(
                choices=list(meta.variants), default=meta.default_variant
            )
            fields["player_count"] = serializers.ChoiceField(
                choices=list(meta.rated_player_counts), default=4
            )
        return fields


class TokenCreateRequest(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField(max_length=64, required=False, allow_blank=True, default="")
    scopes = serializers.ListField(
        child=serializers.ChoiceField(choices=TokenScope.choices),
        min_length=1,
        default=list(TokenScope.values),
        help_text="read: GET requests; play: POST requests.",
    )


# --- responses (documentation only) ---------------------------------------------------


class ErrorResponse(serializers.Serializer[dict[str, Any]]):
    code = serializers.CharField(help_text="snake_case, stable: program against this.")
    detail = serializers.CharField(help_text="A human sentence saying what and why.")

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = dict(super().get_fields())
        # Added here: a class attribute "errors" would shadow Serializer.errors.
        fields["errors"] = serializers.DictField(
            required=False, help_text="invalid_request only: the messages per field."
        )
        fields["reason"] = serializers.CharField(
            required=False,
            help_text="illegal_action only: the game's own refusal code (Indulgence: "
            "must_follow_suit, card_not_in_hand, ...; New Eleusis NE-31.3 and E37: "
            "bad_action, wrong_phase, card_not_in_hand, rule_rejected, ...).",
        )
        return fields


class SummarySeatShape(serializers.Serializer[dict[str, Any]]):
    seat = serializers.IntegerField()
    username = serializers.CharField()
    is_bot = serializers.BooleanField()


class GameSummaryResponse(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    game_type = serializers.ChoiceField(choices=list(kinds.KINDS))
    status = serializers.ChoiceField(choices=GameStatus.choices)
    variant = serializers.ChoiceField(choices=_all_variants())
    player_count = serializers.IntegerField()
    rated = serializers.BooleanField()
    sandbox = serializers.BooleanField(
        help_text="A game dealt from a seed its creator chose: only the creator and "
        "built-in bots play in it (nobody else may join or be invited)."
    )
    version = serializers.IntegerField()
    seats = SummarySeatShape(many=True)
    open_seats = serializers.IntegerField()
    to_act = serializers.IntegerField(allow_null=True)
    my_seat = serializers.IntegerField(allow_null=True)
    my_turn = serializers.BooleanField()
    turn_deadline = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()


class GamePageResponse(serializers.Serializer[dict[str, Any]]):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = GameSummaryResponse(many=True)


class MoveShape(serializers.Serializer[dict[str, Any]]):
    seq = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True, help_text="null: a system step.")
    action = serializers.DictField(
        help_text="The action; {'type': 'advance'} settles a hand and deals the next."
    )
    actor = serializers.ChoiceField(choices=["human", "bot", "autopilot", "system"])
    bot = serializers.CharField(allow_null=True)
    at = serializers.DateTimeField()


class MovesResponse(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField(help_text="The game.")
    version = serializers.IntegerField()
    moves = MoveShape(many=True)


class DisputeResponse(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=DisputeStatus.choices)
    reason = serializers.CharField()
    created_at = serializers.DateTimeField()


class LeaderboardEntryShape(serializers.Serializer[dict[str, Any]]):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    display_name = serializers.CharField()
    is_bot = serializers.BooleanField()
    rating = serializers.FloatField(help_text="Conservative rating: mu - 3 sigma.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()


class LeaderboardResponse(serializers.Serializer[dict[str, Any]]):
    game_type = serializers.ChoiceField(choices=list(kinds.KINDS))
    variant = serializers.ChoiceField(choices=_all_variants())
    player_count = serializers.IntegerField()
    entries = LeaderboardEntryShape(many=True)


class MeResponse(serializers.Serializer[dict[str, Any]]):
    username = serializers.CharField()
    display_name = serializers.CharField()
    is_bot = serializers.BooleanField()
    language = serializers.CharField()
    is_staff = serializers.BooleanField()
    auth = serializers.ChoiceField(choices=["token", "session"])
    scopes = serializers.ListField(child=serializers.ChoiceField(choices=TokenScope.choices))


class TokenResponse(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    prefix = serializers.CharField(help_text="The token's first characters, to tell it apart.")
    scopes = serializers.ListField(child=serializers.ChoiceField(choices=TokenScope.choices))
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(allow_null=True)
    revoked_at = serializers.DateTimeField(allow_null=True)


class TokenCreatedResponse(TokenResponse):
    token = serializers.CharField(help_text="The token itself. Shown this once only.")


class TokenPageResponse(serializers.Serializer[dict[str, Any]]):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = TokenResponse(many=True)


# --- every game -------------------------------------------------------------------------

# Each game's view and record, by key (a test checks every hosted game has its shapes).
Shapes = dict[str, serializers.Serializer[Any] | type[serializers.Serializer[Any]]]
VIEW_SHAPES: Shapes = {
    "indulgence": GameViewResponse,
    "eleusis": EleusisGameViewResponse,
    "pax": PaxGameViewResponse,
}
EXPORT_SHAPES: Shapes = {
    "indulgence": ExportResponse,
    "eleusis": EleusisExportResponse,
    "pax": PaxExportResponse,
}

GameView = PolymorphicProxySerializer(
    component_name="GameView",
    serializers=VIEW_SHAPES,
    resource_type_field_name="game_type",
)
GameExport = PolymorphicProxySerializer(
    component_name="GameExport",
    serializers=EXPORT_SHAPES,
    resource_type_field_name="game_type",
)


class NamedShape(serializers.Serializer[dict[str, Any]]):
    key = serializers.CharField()
    title = serializers.CharField()


class GameTypeResponse(serializers.Serializer[dict[str, Any]]):
    key = serializers.ChoiceField(choices=list(kinds.KINDS))
    title = serializers.CharField()
    player_counts = serializers.ListField(child=serializers.IntegerField())
    rated_player_counts = serializers.ListField(child=serializers.IntegerField())
    variants = NamedShape(many=True, help_text="The first is the default.")
    bots = NamedShape(many=True, help_text="Built-in bots that may take a seat.")
    autopilot = serializers.CharField(help_text="The bot that plays a turn whose time ran out.")
    rules_url = serializers.CharField()
