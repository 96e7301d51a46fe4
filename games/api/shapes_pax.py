"""Pax Illuminaten's view, record and actions as the API serves them (the spec's Appendix
H.3-H.8 and 15.5.1; docs/pax.md). Documentation only, as ``games.api.serializers``:
the views return the engine's view (``pax-view/1``) with the server's common fields
(api.md "Many games"), and ``tests/api/test_pax_api.py`` checks these shapes against
real answers.

The deep parts that Appendix H documents key by key (the table ``state`` of H.5, the
``log`` entries of H.6 and their steps, the set-up of H.4, the derived facts of 15.5.1)
are objects here; their keys are in the spec and docs/pax.md.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from engine.pax.engine import VARIANTS as ENGINE_VARIANTS
from games.api.shapes_eleusis import CommonResultShape
from games.models import GameStatus

VARIANTS = list(ENGINE_VARIANTS)
# H.7's action and decision types, as ``legal_actions`` lists them.
ACTION_TYPES = [
    "scout",
    "influence",
    "extort",
    "organize",
    "expel",
    "oust",
    "scheme",
    "claim_faction",
    "claim_plot",
    "congress",
    "press",
    "investigate",
    "end",
    "decline",
    "swap",
    "take_edict",
    "draw_plot",
    "take",
    "borrow",
    "pay",
    "gain",
    "overturn",
    "conspire",
    "place",
    "move",
    "stop",
    "keep_plot",
    "strength",
    "oust_card",
    "oust_next",
    "keep_event",
    "court",
    "event",
    "activate",
]
Shape = serializers.Serializer


class PaxSeatShape(Shape[dict[str, Any]]):
    seat = serializers.IntegerField()
    username = serializers.CharField()
    display_name = serializers.CharField()
    is_bot = serializers.BooleanField()
    bot_kind = serializers.CharField(allow_null=True, help_text="Set when a built-in bot plays.")
    automa = serializers.CharField(allow_null=True, help_text="The automa's bot (14), or null.")
    placard = serializers.JSONField(allow_null=True, help_text="The seat's placard [r, c] (2.4).")
    facing = serializers.IntegerField(allow_null=True, help_text="0-5, clockwise from NW.")
    contact = serializers.CharField(allow_null=True, help_text="The contact card (E).")


class PaxActionShape(Shape[dict[str, Any]]):
    """An action of H.7: ``type`` and the keys that type takes (all present)."""

    type = serializers.ChoiceField(choices=ACTION_TYPES)
    by = serializers.CharField(
        required=False, allow_null=True, help_text="main, advance, scheme, faction, cube."
    )
    acting = serializers.JSONField(
        required=False, allow_null=True, help_text="A position [r, c], 'placard'."
    )
    target = serializers.JSONField(
        required=False, allow_null=True, help_text="A position [r, c], 'placard'."
    )
    n = serializers.IntegerField(required=False, allow_null=True)
    faction = serializers.CharField(required=False, allow_null=True)
    card = serializers.CharField(required=False, allow_null=True)
    cards = serializers.ListField(child=serializers.CharField(), required=False, allow_null=True)
    defender = serializers.IntegerField(required=False, allow_null=True)
    k = serializers.IntegerField(required=False, allow_null=True)
    use = serializers.CharField(required=False, allow_null=True)
    plot = serializers.CharField(required=False, allow_null=True)
    seat = serializers.IntegerField(required=False, allow_null=True)
    what = serializers.CharField(required=False, allow_null=True)
    a = serializers.JSONField(required=False, allow_null=True)
    b = serializers.JSONField(required=False, allow_null=True)
    edict = serializers.CharField(required=False, allow_null=True)
    exchange = serializers.BooleanField(required=False, allow_null=True)
    # ``from`` is a keyword: the field is added below.
    to = serializers.JSONField(required=False, allow_null=True)
    delta = serializers.IntegerField(required=False, allow_null=True)
    choice = serializers.CharField(required=False, allow_null=True)
    event = serializers.CharField(required=False, allow_null=True)


PaxActionShape._declared_fields["from"] = serializers.JSONField(
    required=False, allow_null=True, help_text="move: a position; overturn: a seat or null."
)


class PaxPaymentHelpShape(Shape[dict[str, Any]]):
    """15.5.1's payment help for one offered action (docs/pax.md P-87)."""

    units = serializers.IntegerField(
        help_text=(
            "The payment units (2.2.4) the action opens at once, one `pay` decision each, "
            "those the engine pays by itself (R79) included; 0: it costs nothing."
        )
    )
    payable = serializers.BooleanField(
        help_text="Whether it can be paid: always true, only payable actions are offered (R80)."
    )
    payment = PaxActionShape(
        many=True,
        help_text=(
            "One suggested payment: the `pay` actions you would send, the first offered "
            "option at each unit that has a choice. You may pay otherwise."
        ),
    )
    forced = PaxActionShape(
        many=True,
        help_text=(
            "The `pay` answers of the units with one way to pay, which the engine gives "
            "by itself on the way (R79), in order: which token each takes. "
            "`units` = len(`payment`) + len(`forced`)."
        ),
    )


class PaxSettingsShape(Shape[dict[str, Any]]):
    variant = serializers.ChoiceField(choices=VARIANTS)
    players = serializers.IntegerField()
    automa = serializers.CharField(allow_null=True)
    layout = serializers.CharField(help_text="M14 or M19 (F).")
    round_cap = serializers.IntegerField(allow_null=True, help_text="15.5.3, P-21.")


class PaxDataShape(Shape[dict[str, Any]]):
    id = serializers.CharField()
    version = serializers.CharField()


class PaxSeedShape(Shape[dict[str, Any]]):
    commitment = serializers.CharField(help_text="SHA-256 of the seed (H.2).")
    value = serializers.CharField(allow_null=True, help_text="Published once the game is over.")


class PaxEngineSeatShape(Shape[dict[str, Any]]):
    seat = serializers.IntegerField()
    automa = serializers.CharField(allow_null=True)
    placard = serializers.JSONField()
    facing = serializers.IntegerField()
    contact = serializers.CharField()


class PaxResultShape(CommonResultShape):
    plots = serializers.ListField(child=serializers.CharField(), allow_null=True)
    automa_plot = serializers.CharField(allow_null=True)


class PaxGameViewResponse(Shape[dict[str, Any]]):
    """A Pax Illuminaten game as the caller's seat may see it (15.4, H.8): the common
    fields of every game and the engine's ``pax-view/1``. Fields marked optional exist
    once the game starts."""

    id = serializers.IntegerField()
    game_type = serializers.ChoiceField(choices=["pax"])
    status = serializers.ChoiceField(choices=GameStatus.choices)
    variant = serializers.ChoiceField(choices=VARIANTS)
    player_count = serializers.IntegerField()
    rated = serializers.BooleanField()
    sandbox = serializers.BooleanField()
    version = serializers.IntegerField()
    my_seat = serializers.IntegerField(allow_null=True)
    seed_commitment = serializers.CharField()
    turn_timeout_seconds = serializers.IntegerField(allow_null=True)
    turn_deadline = serializers.DateTimeField(allow_null=True, help_text="This decision's.")
    seats = PaxSeatShape(many=True)
    open_seats = serializers.IntegerField()
    format = serializers.CharField(help_text="pax-view/1")
    seat = serializers.IntegerField(allow_null=True, help_text="The view's seat (null: spectator).")
    to_act = serializers.IntegerField(allow_null=True)
    legal_actions = PaxActionShape(many=True)
    payment_help = PaxPaymentHelpShape(
        many=True,
        help_text=(
            "15.5.1, P-87: one entry per entry of `legal_actions`, in the same order; "
            "empty when you are not to act."
        ),
    )
    decision = serializers.DictField(allow_null=True, help_text="Help on the open decision (P-26).")
    result = PaxResultShape(allow_null=True)
    state = serializers.DictField(
        allow_null=True, help_text="H.5's table, filtered for this seat (H.8); null: not started."
    )
    log = serializers.ListField(
        child=serializers.DictField(), help_text="H.6's entries of about the last round (P-12)."
    )
    derived = serializers.DictField(allow_null=True, help_text="15.5.1's derived facts.")
    settings = PaxSettingsShape(required=False)
    data = PaxDataShape(required=False)  # type: ignore[assignment]  # a field, not .data
    seed = PaxSeedShape(required=False)
    log_start = serializers.IntegerField(required=False, help_text="The first entry's seq.")
    state_version = serializers.IntegerField(required=False, help_text="The log's length.")
    can_undo = serializers.BooleanField(
        help_text=(
            "Whether you may take back your last action now (15.5.2, docs/pax.md P-79): "
            "POST /api/v1/games/{id}/undo."
        )
    )


class PaxRecordSeatShape(PaxEngineSeatShape):
    username = serializers.CharField()
    is_bot = serializers.BooleanField()


class PaxRecordMoveShape(Shape[dict[str, Any]]):
    seq = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    action = serializers.DictField()
    at = serializers.DateTimeField()


class PaxExportResponse(Shape[dict[str, Any]]):
    """H.3's ``pax-record/1`` (settings, data, seed, seats, set-up, log, state) with the
    server's fields: the game's id, accounts, status and move log (P-75 replays it)."""

    id = serializers.IntegerField()
    game_type = serializers.ChoiceField(choices=["pax"])
    game_status = serializers.ChoiceField(choices=GameStatus.choices)
    format = serializers.CharField(help_text="pax-record/1")
    settings = PaxSettingsShape()
    data = PaxDataShape()  # type: ignore[assignment]  # a field, not .data
    seed = PaxSeedShape()
    seats = PaxRecordSeatShape(many=True)
    setup = serializers.DictField(help_text="H.4: the set-up, deck orders included.")
    log = serializers.ListField(child=serializers.DictField(), help_text="H.6: every entry.")
    state = serializers.DictField(help_text="H.5: the final table.")
    moves = PaxRecordMoveShape(many=True)
