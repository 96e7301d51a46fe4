"""New Eleusis' view, record and actions as the API serves them (rules/new-eleusis.md NE-28,
NE-29.3, NE-31.2; docs/eleusis.md). Documentation only, as ``games.api.serializers``:
the views return the engine's view with the server's common fields (api.md "Many
games"), and ``tests/api/test_eleusis_api.py`` checks these shapes against real answers.

Deep parts that the engine documents in full (log entries and their events, round
records, the score) are objects here; their keys are in NE-29.3 and docs/eleusis.md.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.models import GameStatus

PHASES = ["rule_setup", "turn", "prophet_call", "dealer_choice", "post_play", "round_over"]
GAME_PHASES = [*PHASES, "game_over"]
ACTION_TYPES = [
    "set_rule",
    "library_rule",
    "choose_card",
    "play",
    "no_play",
    "declare_prophet",
    "pass",
    "call",
    "set_prophecy",
    "propose_end",
    "agree_end",
]
VARIANTS = ["standard", "express", "short", "practice"]
DIFFICULTIES = ["easy", "medium", "hard", "expert"]
Shape = serializers.Serializer


def _objects(help_text: str, **options: Any) -> serializers.ListField:
    return serializers.ListField(child=serializers.DictField(), help_text=help_text, **options)


class DeadlinesShape(Shape[dict[str, Any]]):
    turn = serializers.IntegerField()
    prophet_call = serializers.IntegerField()
    prophet_window = serializers.IntegerField()
    rule_submission = serializers.IntegerField()
    dealer_choice = serializers.IntegerField()


class SettingsShape(Shape[dict[str, Any]]):
    hand_size = serializers.IntegerField()
    sudden_death = serializers.IntegerField()
    sudden_death_prophet = serializers.IntegerField()
    round_limit = serializers.IntegerField(allow_null=True)
    rated = serializers.BooleanField()
    house_dealt = serializers.BooleanField()
    late_claims = serializers.BooleanField()
    going_out_prophet = serializers.BooleanField()
    deadlines = DeadlinesShape(
        help_text="Seconds per phase (NE-27.1; applied by the server "
        "when the table has a time per move, Our ruling OR44)."
    )
    difficulty = serializers.ChoiceField(choices=DIFFICULTIES)
    sanity_walks = serializers.IntegerField()
    max_turns = serializers.IntegerField()


class EleusisSeatShape(Shape[dict[str, Any]]):
    seat = serializers.IntegerField()
    username = serializers.CharField()
    display_name = serializers.CharField()
    is_bot = serializers.BooleanField()
    bot_kind = serializers.CharField(allow_null=True, help_text="Set when a built-in bot plays.")
    role = serializers.ChoiceField(
        choices=["dealer", "prophet", "scientist"], allow_null=True, help_text="null: not started."
    )
    hand_count = serializers.IntegerField(allow_null=True, help_text="Cards held (NE-28.1).")
    total = serializers.IntegerField(allow_null=True, help_text="Game total so far.")
    bot = serializers.BooleanField(required=False)
    expelled = serializers.BooleanField(required=False)
    been_prophet = serializers.BooleanField(required=False)
    dealt = serializers.BooleanField(required=False, help_text="Has dealt a scored round.")


class RuleShape(Shape[dict[str, Any]]):
    language = serializers.CharField(help_text="erl-1")
    commitment = serializers.CharField(allow_null=True, help_text="NE-23: from the start.")
    evaluator = serializers.CharField(allow_null=True)
    no_play_choice = serializers.ChoiceField(choices=["random", "choose"], allow_null=True)
    difficulty = serializers.ChoiceField(choices=DIFFICULTIES, allow_null=True)
    hints = _objects("Hints, verified (H1..H10, NE-24) or free text.")


class MainCardShape(Shape[dict[str, Any]]):
    card = serializers.CharField(help_text="A card id, e.g. QH.1 (NE-3.3).")
    seat = serializers.IntegerField(allow_null=True, help_text="null: a starter card.")
    seq = serializers.IntegerField(allow_null=True)
    starter = serializers.BooleanField()


class LinePlayShape(Shape[dict[str, Any]]):
    under = serializers.IntegerField(help_text="Index of the main-line card it followed.")
    seat = serializers.IntegerField()
    cards = serializers.ListField(child=serializers.CharField())
    seq = serializers.IntegerField()


class StarterShape(Shape[dict[str, Any]]):
    card = serializers.CharField(allow_null=True, help_text="null: put back, not yet revealed.")
    kept = serializers.BooleanField()


class PendingShape(Shape[dict[str, Any]]):
    seat = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["play", "no_play"])
    cards = serializers.ListField(child=serializers.CharField(), help_text="Face up (NE-26.3).")
    seq = serializers.IntegerField()
    sudden_death = serializers.BooleanField()
    call = serializers.DictField(allow_null=True)


class ProphetShape(Shape[dict[str, Any]]):
    seat = serializers.IntegerField()
    m = serializers.IntegerField()
    main_at = serializers.IntegerField()


class ProphetLineShape(ProphetShape):
    overthrown = serializers.BooleanField()


class MarkerShape(Shape[dict[str, Any]]):
    color = serializers.CharField()
    card = serializers.CharField()
    count = serializers.IntegerField()
    removed = serializers.BooleanField()


class RoundShape(Shape[dict[str, Any]]):
    """The round being played (NE-28.1): everything public, and the record once scored."""

    number = serializers.IntegerField()
    dealer = serializers.IntegerField(allow_null=True, help_text="null: house-dealt (V4).")
    phase = serializers.ChoiceField(choices=PHASES)
    rule = RuleShape()
    decks = serializers.IntegerField()
    decks_in_use = serializers.IntegerField()
    stock = serializers.IntegerField(help_text="Cards left in the stock.")
    starter = StarterShape(many=True)
    first_player = serializers.IntegerField(allow_null=True)
    main = MainCardShape(many=True, help_text="The main line, starter cards first.")
    side = LinePlayShape(many=True, help_text="Wrong plays beneath the card they followed.")
    exhibits = LinePlayShape(many=True, help_text="Hands shown by correct no plays.")
    pc = serializers.IntegerField(help_text="Play count toward sudden death (NE-11).")
    main_played = serializers.IntegerField()
    side_played = serializers.IntegerField()
    markers = MarkerShape(many=True)
    prophet = ProphetShape(allow_null=True)
    prophet_lines = ProphetLineShape(many=True)
    sudden_death = serializers.BooleanField()
    pending = PendingShape(allow_null=True, help_text="A play awaiting the prophet's call.")
    expelled = serializers.ListField(child=serializers.IntegerField())
    turns = _objects("Every judged turn: cards, the card it followed, truth, call, approval.")
    turn_count = serializers.IntegerField()
    end_reason = serializers.CharField(allow_null=True)
    log = _objects("NE-29.3.5's log entries, sealed fields null ('withheld' names them).")
    record = serializers.DictField(allow_null=True, help_text="NE-29.3.4, once scored.")


class DealerSecretShape(Shape[dict[str, Any]]):
    source = serializers.CharField()  # type: ignore[assignment]  # a field, not Field.source
    salt = serializers.CharField()
    library_id = serializers.CharField(allow_null=True)
    sanity = serializers.CharField()
    reasons = serializers.ListField(child=serializers.CharField())


class EndShape(Shape[dict[str, Any]]):
    reason = serializers.CharField()
    early_end_points = serializers.ListField(child=serializers.IntegerField())
    totals = serializers.ListField(child=serializers.IntegerField())
    ranking = serializers.ListField(child=serializers.ListField(child=serializers.IntegerField()))


class CommonResultShape(Shape[dict[str, Any]]):
    ranking = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="Seats best first; ties share a place.",
    )
    scores = serializers.DictField(child=serializers.IntegerField(), help_text="By seat.")
    winner_seats = serializers.ListField(child=serializers.IntegerField())
    reason = serializers.CharField()


class EleusisActionShape(Shape[dict[str, Any]]):
    """NE-31.2's actions, as ``legal_actions`` lists them: entries with ``template``
    describe a family (a string of 2-4 cards, a rule or prophecy source, OR36)."""

    type = serializers.ChoiceField(choices=ACTION_TYPES)
    template = serializers.ChoiceField(choices=["string", "source"], required=False)
    cards = serializers.JSONField(required=False, help_text="Card ids; a template's bounds.")
    card = serializers.CharField(required=False)
    prophet = serializers.JSONField(required=False, help_text="no | declare | decide_after.")
    verdict = serializers.CharField(required=False, allow_null=True)
    source = serializers.CharField(  # type: ignore[assignment]  # a field, not Field.source
        required=False, allow_null=True
    )
    hints = serializers.JSONField(required=False)
    free_hint = serializers.CharField(required=False, allow_null=True)
    no_play_choice = serializers.JSONField(required=False)
    confirm_warnings = serializers.BooleanField(required=False)
    difficulty = serializers.ChoiceField(choices=DIFFICULTIES, required=False)
    id = serializers.CharField(required=False, help_text="A library rule, R01..R45.")
    description = serializers.CharField(required=False)


class EleusisGameViewResponse(Shape[dict[str, Any]]):
    """A New Eleusis game as the caller's seat may see it (NE-28): the common fields of
    every game and the engine's view. Fields marked optional exist once the game starts."""

    id = serializers.IntegerField()
    game_type = serializers.ChoiceField(choices=["eleusis"])
    status = serializers.ChoiceField(choices=GameStatus.choices)
    variant = serializers.ChoiceField(choices=VARIANTS)
    player_count = serializers.IntegerField()
    rated = serializers.BooleanField()
    sandbox = serializers.BooleanField()
    version = serializers.IntegerField()
    my_seat = serializers.IntegerField(allow_null=True)
    seed_commitment = serializers.CharField()
    turn_timeout_seconds = serializers.IntegerField(allow_null=True)
    turn_deadline = serializers.DateTimeField(allow_null=True, help_text="This phase's.")
    seats = EleusisSeatShape(many=True)
    open_seats = serializers.IntegerField()
    to_act = serializers.IntegerField(allow_null=True)
    legal_actions = EleusisActionShape(many=True)
    result = CommonResultShape(allow_null=True)
    game = serializers.ChoiceField(choices=["eleusis"])
    phase = serializers.ChoiceField(choices=GAME_PHASES, allow_null=True)
    round = RoundShape(allow_null=True)
    my_hand = serializers.ListField(
        child=serializers.CharField(), allow_null=True, help_text="Yours; null: no hand."
    )
    settings = SettingsShape(required=False)
    seat = serializers.IntegerField(allow_null=True, required=False)
    rounds_planned = serializers.IntegerField(required=False)
    prophet_possible = serializers.BooleanField(required=False)
    previous_rounds = _objects("Scored rounds' records (NE-29.3.4).", required=False)
    round_seed_commitments = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="E34."
    )
    votes = serializers.ListField(child=serializers.IntegerField(), required=False)
    vote_open = serializers.BooleanField(required=False)
    end = EndShape(allow_null=True, required=False)
    my_prophecy = serializers.CharField(allow_null=True, required=False)
    dealer_secret = DealerSecretShape(allow_null=True, required=False)


class EleusisRecordSeatShape(Shape[dict[str, Any]]):
    seat = serializers.IntegerField()
    bot = serializers.BooleanField()
    username = serializers.CharField()
    is_bot = serializers.BooleanField()


class EleusisRecordMoveShape(Shape[dict[str, Any]]):
    seq = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    action = serializers.DictField()
    at = serializers.DateTimeField()


class EleusisExportResponse(Shape[dict[str, Any]]):
    """NE-29.3's ``eleusis-record-1`` as the engine writes it (``verify`` needs nothing
    else), with the server's fields: the game's id, accounts, status and move log."""

    id = serializers.IntegerField()
    game_type = serializers.ChoiceField(choices=["eleusis"])
    game_status = serializers.ChoiceField(choices=GameStatus.choices)
    game = serializers.ChoiceField(choices=["eleusis"])
    format = serializers.CharField()
    variant = serializers.ChoiceField(choices=VARIANTS)
    player_count = serializers.IntegerField()
    settings = SettingsShape()
    seats = EleusisRecordSeatShape(many=True)
    seed = serializers.CharField(allow_null=True)
    seed_commitment = serializers.CharField()
    round_seed_commitments = serializers.ListField(child=serializers.CharField())
    first_dealer = serializers.IntegerField(allow_null=True)
    rounds = _objects("Every round (NE-29.3.4).")
    status = serializers.ChoiceField(choices=["in_progress", "over"])
    end = EndShape(allow_null=True)
    moves = EleusisRecordMoveShape(many=True)
