"""Indulgence's view and record as the API writes them: documentation shapes for the
OpenAPI schema, as shapes_eleusis and shapes_pax are for the other games (split from
games.api.serializers, which exports them)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.models import GameStatus, Variant

FAMILIES = ["borgia", "medici", "orsini", "sforza"]
PHASES = [
    "choosing_edict",
    "naming_trump",
    "sin_decision",
    "playing",
    "resolving_ties",
    "settling",
    "finished",
]
ACTION_TYPES = ["choose_edict", "papal_bull", "name_trump", "sin", "pass", "play", "resolve_tie"]


def _seat_map(help_text: str, **options: Any) -> serializers.DictField:
    return serializers.DictField(
        child=serializers.IntegerField(),
        help_text=f"{help_text} Keys are seats as strings.",
        **options,
    )


class ActionShape(serializers.Serializer[dict[str, Any]]):
    type = serializers.ChoiceField(choices=ACTION_TYPES)
    edict = serializers.CharField(required=False, help_text="choose_edict: an edict id.")
    family = serializers.ChoiceField(
        choices=FAMILIES, required=False, help_text="name_trump, resolve_tie."
    )
    card = serializers.CharField(required=False, help_text="play: a card id, B1..S9.")
    indulgence = serializers.BooleanField(
        required=False, help_text="play: the sinner puts the Indulgence ring on the card."
    )
    seat = serializers.IntegerField(required=False, help_text="resolve_tie: the chosen seat.")


class SeatShape(serializers.Serializer[dict[str, Any]]):
    seat = serializers.IntegerField()
    username = serializers.CharField()
    display_name = serializers.CharField()
    is_bot = serializers.BooleanField()
    bot_kind = serializers.CharField(allow_null=True, help_text="Set when a built-in bot plays.")
    florins = serializers.IntegerField(
        allow_null=True, help_text="null until the game starts; staff adjustments included."
    )
    florins_adjustment = serializers.IntegerField(
        help_text="Florins staff added (or took) after a review; included in florins."
    )
    papal_bull_available = serializers.BooleanField(allow_null=True)


class EdictShape(serializers.Serializer[dict[str, Any]]):
    id = serializers.CharField()
    kind = serializers.CharField()
    title = serializers.CharField()
    families = serializers.ListField(child=serializers.ChoiceField(choices=FAMILIES))
    edict_amount = serializers.IntegerField()
    sin_reward = serializers.IntegerField()
    fail_penalty = serializers.IntegerField()
    basic = serializers.BooleanField()
    text = serializers.CharField()
    sin_text = serializers.CharField()


class PlayShape(serializers.Serializer[dict[str, Any]]):
    seat = serializers.IntegerField()
    card = serializers.CharField(
        allow_null=True, help_text="null: played face down and the trick is not complete."
    )
    indulgence = serializers.BooleanField()


class CurrentTrickShape(serializers.Serializer[dict[str, Any]]):
    leader = serializers.IntegerField()
    led_family = serializers.ChoiceField(choices=FAMILIES, allow_null=True)
    plays = PlayShape(many=True)


class TrickShape(serializers.Serializer[dict[str, Any]]):
    leader = serializers.IntegerField()
    plays = PlayShape(many=True)
    winner = serializers.IntegerField()


class SinDecisionShape(serializers.Serializer[dict[str, Any]]):
    seat = serializers.IntegerField()
    decision = serializers.ChoiceField(choices=["sin", "pass"])


class TieChoiceShape(serializers.Serializer[dict[str, Any]]):
    family = serializers.ChoiceField(choices=FAMILIES)
    chooser = serializers.IntegerField()
    seat = serializers.IntegerField()


class PendingTieShape(serializers.Serializer[dict[str, Any]]):
    family = serializers.ChoiceField(choices=FAMILIES)
    chooser = serializers.IntegerField()
    seats = serializers.ListField(child=serializers.IntegerField())


class PaymentShape(serializers.Serializer[dict[str, Any]]):
    payer = serializers.IntegerField()
    payee = serializers.IntegerField()
    owed = serializers.IntegerField()
    paid = serializers.IntegerField()
    reason = serializers.CharField()


class SettlementShape(serializers.Serializer[dict[str, Any]]):
    hand = serializers.IntegerField()
    ruler = serializers.IntegerField()
    edicts_in_force = serializers.ListField(child=serializers.CharField())
    papal_bull = serializers.BooleanField()
    trump = serializers.ChoiceField(choices=FAMILIES, allow_null=True)
    sinner = serializers.IntegerField(allow_null=True)
    sin_succeeded = serializers.BooleanField(allow_null=True)
    papal_bull_win = serializers.BooleanField()
    bankruptcy = serializers.BooleanField()
    ended_early = serializers.BooleanField()
    tie_choices = TieChoiceShape(many=True)
    payments = PaymentShape(many=True)
    florins_after = _seat_map("Florins after the hand.")


class FlorinAdjustmentShape(serializers.Serializer[dict[str, Any]]):
    seat = serializers.IntegerField()
    amount = serializers.IntegerField()
    reason = serializers.CharField()
    at = serializers.DateTimeField()


class ResultShape(serializers.Serializer[dict[str, Any]]):
    winner_seat = serializers.IntegerField()
    florins = _seat_map("Final florins.")
    reason = serializers.ChoiceField(choices=["rounds_complete", "bankruptcy", "papal_bull_sin"])
    # The common result of every game (api.md "Many games"); in the view, not the record.
    ranking = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        required=False,
        help_text="Seats best first, ties sharing a place (what ratings read).",
    )
    scores = _seat_map("The game's scores: florins.", required=False)
    winner_seats = serializers.ListField(child=serializers.IntegerField(), required=False)


class GameViewResponse(serializers.Serializer[dict[str, Any]]):
    """api.md "The view": what the caller's seat may know (a spectator's when unseated).

    Fields marked optional exist once the cards are dealt (not while the game is open).
    """

    id = serializers.IntegerField()
    game_type = serializers.ChoiceField(choices=["indulgence"], help_text="The game.")
    status = serializers.ChoiceField(choices=GameStatus.choices)
    variant = serializers.ChoiceField(choices=Variant.choices)
    player_count = serializers.IntegerField()
    rated = serializers.BooleanField()
    sandbox = serializers.BooleanField(
        help_text="A game dealt from a seed its creator chose: only the creator and "
        "built-in bots play in it (nobody else may join or be invited)."
    )
    version = serializers.IntegerField(help_text="Bumps on every state change.")
    my_seat = serializers.IntegerField(allow_null=True, help_text="null: you are a spectator.")
    seed_commitment = serializers.CharField(help_text="sha256 hex of the secret seed.")
    turn_timeout_seconds = serializers.IntegerField(allow_null=True)
    turn_deadline = serializers.DateTimeField(allow_null=True)
    seats = SeatShape(many=True)
    open_seats = serializers.IntegerField()
    round = serializers.IntegerField(allow_null=True, help_text="1..3.")
    hand_number = serializers.IntegerField(allow_null=True)
    total_hands = serializers.IntegerField(required=False)
    ruler_seat = serializers.IntegerField(allow_null=True)
    first_ruler = serializers.IntegerField(required=False)
    phase = serializers.ChoiceField(choices=PHASES, allow_null=True)
    to_act = serializers.IntegerField(allow_null=True, help_text="The seat to act, if any.")
    edict_row = EdictShape(many=True)
    edicts_in_play = EdictShape(many=True)
    papal_bull = serializers.BooleanField(required=False)
    edict_deck_remaining = serializers.IntegerField(required=False)
    sin_decisions = SinDecisionShape(many=True, required=False)
    sinner_seat = serializers.IntegerField(allow_null=True)
    trump = serializers.ChoiceField(choices=FAMILIES, allow_null=True)
    indulgence_used = serializers.BooleanField()
    face_down = serializers.BooleanField(required=False)
    my_hand = serializers.ListField(child=serializers.CharField(), help_text="Your cards.")
    hand_counts = _seat_map("Cards each seat still holds.", required=False)
    current_trick = CurrentTrickShape(allow_null=True)
    tricks = TrickShape(many=True, help_text="Completed tricks of this hand.")
    trick_counts = _seat_map("Tricks each seat took this hand.", required=False)
    ended_early = serializers.BooleanField(required=False)
    pending_tie = PendingTieShape(allow_null=True, required=False)
    tie_choices = TieChoiceShape(many=True, required=False)
    legal_actions = ActionShape(many=True, help_text="Empty unless it is your turn.")
    last_settlement = SettlementShape(allow_null=True)
    result = ResultShape(allow_null=True)
    is_over = serializers.BooleanField(required=False)
    florin_adjustments = FlorinAdjustmentShape(
        many=True, help_text="Staff adjustments after a dispute review, oldest first."
    )


class RecordSeatShape(serializers.Serializer[dict[str, Any]]):
    seat = serializers.IntegerField()
    username = serializers.CharField()
    is_bot = serializers.BooleanField()


class RecordHandShape(serializers.Serializer[dict[str, Any]]):
    number = serializers.IntegerField()
    round = serializers.IntegerField()
    ruler = serializers.IntegerField()
    deal = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="Cards dealt per seat; keys are seats as strings.",
    )
    edict_row = serializers.ListField(child=serializers.CharField())
    edicts_in_force = serializers.ListField(child=serializers.CharField())
    papal_bull = serializers.BooleanField()
    trump = serializers.ChoiceField(choices=FAMILIES, allow_null=True)
    sin_decisions = SinDecisionShape(many=True)
    sinner = serializers.IntegerField(allow_null=True)
    tricks = TrickShape(many=True)
    current_trick = CurrentTrickShape(allow_null=True)
    ended_early = serializers.BooleanField()
    tie_choices = TieChoiceShape(many=True)
    sin_succeeded = serializers.BooleanField(allow_null=True)
    payments = PaymentShape(many=True)
    florins_after = _seat_map("Florins after the hand (null while it is played).", allow_null=True)


class RecordMoveShape(serializers.Serializer[dict[str, Any]]):
    seq = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    action = serializers.DictField()
    at = serializers.DateTimeField()


class ExportResponse(serializers.Serializer[dict[str, Any]]):
    """api.md "The full record": the engine's full_record plus accounts and timestamps."""

    id = serializers.IntegerField()
    game_type = serializers.ChoiceField(choices=["indulgence"])
    status = serializers.ChoiceField(choices=GameStatus.choices)
    variant = serializers.ChoiceField(choices=Variant.choices)
    player_count = serializers.IntegerField()
    seed = serializers.CharField()
    seed_commitment = serializers.CharField()
    seats = RecordSeatShape(many=True)
    first_ruler = serializers.IntegerField()
    edict_deck = serializers.ListField(child=serializers.CharField())
    hands = RecordHandShape(many=True)
    result = ResultShape(allow_null=True)
    moves = RecordMoveShape(many=True)
    florin_adjustments = FlorinAdjustmentShape(many=True)
    florins_adjusted = _seat_map(
        "Final florins with staff adjustments (result stays as played).", required=False
    )
