"""Forms of the web pages: they validate input; services do the work."""

from __future__ import annotations

import unicodedata
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games import bots, kinds
from games.account_api import webhook_url_problem
from games.models import Player
from games.web import pages, vocab

# Characters a name may not carry: controls (Cc), format characters (Cf: bidi overrides
# and isolates, zero-width spaces and joiners, the soft hyphen), private use and
# surrogates. They hide or reorder what a reader sees.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs"})
MAX_INT_DIGITS = 18


def plain_int(raw: str | None) -> int | None:
    """``raw`` as a non-negative integer if it is 1 to 18 ASCII digits, else None.

    ``str.isdigit()`` also accepts "²", "١٢" or 5,000 digits, which ``int()`` refuses (a
    ValueError, and a 500, where a form expects a number)."""
    if raw is None or not 0 < len(raw) <= MAX_INT_DIGITS or not (raw.isascii() and raw.isdigit()):
        return None
    return int(raw)


def has_hidden_characters(text: str) -> bool:
    return any(unicodedata.category(ch) in HIDDEN_CATEGORIES for ch in text)


def name_key(text: str) -> str:
    """A name as a reader compares names: NFKC, case-folded (``ＢＯＢ`` is ``bob``)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def name_used_by_another(name: str, *, owner: Any) -> bool:
    """Whether ``name`` reads as the username or the display name of an account other
    than ``owner``. Usernames are stored NFKC (the sign-up form normalises them) and
    display names too since this check, so a case-insensitive match of the NFKC form or
    of the folded form finds them."""
    spellings = {unicodedata.normalize("NFKC", name), name_key(name)}
    by_username = Q()
    by_display = Q()
    for spelling in spellings:
        by_username |= Q(username__iexact=spelling)
        by_display |= Q(display_name__iexact=spelling)
    users = get_user_model().objects.exclude(pk=owner.pk)
    players = Player.objects.exclude(user_id=owner.pk)
    return users.filter(by_username).exists() or players.filter(by_display).exists()


TIMEOUT_CHOICES = [
    ("", _("No time limit")),
    ("300", _("5 minutes")),
    ("3600", _("1 hour")),
    ("86400", _("1 day")),
    ("259200", _("3 days")),
]


def _seat_choices(game_type: str = kinds.DEFAULT) -> list[tuple[str, Any]]:
    kind = kinds.get(game_type)
    names = sorted(bots.available_kinds(game_type))
    return [
        ("", _("A person (open seat)")),
        *((k, vocab.BOT_KINDS.get(k) or kind.bot_title(k)) for k in names),
    ]


def _variant_choices(game_type: str) -> list[tuple[str, Any]]:
    kind = kinds.get(game_type)
    return [(v, kind.variant_title(v)) for v in kind.meta.variants]


def _game_type_of(data: Any, default: str) -> str:
    key = data.get("game_type") if data is not None and hasattr(data, "get") else None
    key = key or default
    return key if key in kinds.KINDS else kinds.DEFAULT


class SignupForm(UserCreationForm):
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES, initial="en")
    # Not User.email: the address waits for its confirmation (games/email_addresses.py).
    email = forms.EmailField(
        label=_("Email address (optional)"),
        required=False,
        max_length=254,
        help_text=_(
            "For an email when it is your turn and to reset a forgotten password. We first "
            "send one message with a link to confirm the address, and nothing else until "
            "you follow it. Other players never see it. You can add or change it later in "
            "Settings."
        ),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username",)

    def clean_username(self) -> str:
        username = str(super().clean_username())
        if has_hidden_characters(username):
            raise forms.ValidationError(
                _("A name may not contain control, format or invisible characters.")
            )
        return username


class GameCreateForm(forms.Form):
    """A new game of ``game_type`` (the posted ``game_type``, else the one given, else
    Indulgence): its player counts, variants, seats and bots (``games.kinds``)."""

    game_type = forms.ChoiceField(
        choices=[(key, key) for key in kinds.KINDS], widget=forms.HiddenInput, required=False
    )
    player_count = forms.TypedChoiceField(
        label=_("Players"), choices=[(3, "3"), (4, "4")], coerce=int, initial=4
    )
    variant = forms.ChoiceField(label=_("Variant"))  # the kind's variants (__init__)
    turn_timeout_seconds = forms.TypedChoiceField(
        label=_("Time per move"),
        choices=TIMEOUT_CHOICES,
        coerce=int,
        empty_value=None,
        required=False,
    )
    seat_1 = forms.ChoiceField(label=_("Seat 1"), required=False)
    seat_2 = forms.ChoiceField(label=_("Seat 2"), required=False)
    seat_3 = forms.ChoiceField(label=_("Seat 3"), required=False)
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)
    invite = forms.CharField(
        label=_("Invite"),
        required=False,
        max_length=500,
        help_text=_("Usernames to challenge, separated by commas (optional)."),
    )

    def invitees(self) -> list[str]:
        return [name.strip() for name in self.cleaned_data["invite"].split(",") if name.strip()]

    def __init__(self, *args: Any, game_type: str = kinds.DEFAULT, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.kind_key = _game_type_of(self.data if self.is_bound else None, game_type)
        meta = kinds.get(self.kind_key).meta
        self.fields["game_type"].initial = self.kind_key
        counts = meta.player_counts
        self.fields["player_count"].choices = [(n, str(n)) for n in counts]  # type: ignore[attr-defined]
        self.fields["player_count"].initial = 4 if 4 in counts else counts[0]
        self.fields["variant"].choices = _variant_choices(self.kind_key)  # type: ignore[attr-defined]
        self.fields["variant"].initial = meta.default_variant
        help_texts = pages.of_kind(kinds.get(self.kind_key)).SEAT_HELP
        for seat in range(4, max(counts)):  # seats 1-3 are declared above
            self.fields[f"seat_{seat}"] = forms.ChoiceField(
                label=_("Seat %(n)d") % {"n": seat}, required=False
            )
        for seat in range(1, max(counts)):
            field = self.fields[f"seat_{seat}"]
            field.choices = _seat_choices(self.kind_key)  # type: ignore[attr-defined]
            field.help_text = help_texts.get(seat, "")
        self.fields = {
            name: field
            for name, field in self.fields.items()
            if not name.startswith("seat_") or int(name[5:]) < max(counts)
        }
        # The game's own table options (New Eleusis: rounds, cards per hand).
        self.game_pages = pages.of_kind(kinds.get(self.kind_key))
        if hasattr(self.game_pages, "create_fields"):
            self.fields.update(self.game_pages.create_fields())

    def game_options(self) -> dict[str, Any]:
        """The options of ``services.game_create`` the game's own fields ask for."""
        if not hasattr(self.game_pages, "create_options"):
            return {}
        options: dict[str, Any] = self.game_pages.create_options(self.cleaned_data)
        return options

    def clean_game_type(self) -> str:
        return self.kind_key

    def bot_seats(self) -> list[tuple[int, str]]:
        count = self.cleaned_data["player_count"]
        # P-78: a seat the variant gives to the rules' own player (Pax's automa) is its,
        # whatever the seat's field says.
        variant = self.cleaned_data.get("variant") or kinds.get(self.kind_key).meta.default_variant
        fixed = {n for n, _bot in kinds.get(self.kind_key).fixed_bot_seats(count, variant)}
        return [
            (seat, kind)
            for seat in range(1, count)
            if seat not in fixed and (kind := self.cleaned_data.get(f"seat_{seat}"))
        ]


class LanguageForm(forms.Form):
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)


NOTIFICATION_LABELS = {
    "your_turn": _("Email me when it is my turn"),
    "reminder": _("Email me a reminder before my time runs out"),
    "game_finished": _("Email me when a game of mine ends"),
    "dispute_update": _("Email me about my disputes"),
    "seat_handed_to_bot": _("Email me when a bot takes over my seat"),
    "challenge": _("Email me when someone challenges me to a game"),
    "game_started": _("A game of mine started"),
    "player_joined": _("Someone joined a game of mine"),
    "autopilot_move": _("The autopilot moved for me (time ran out)"),
}


class NotificationForm(forms.Form):
    """The email switches and the quiet hours of games.notifications.preferences_update."""

    quiet_start = forms.TimeField(
        label=_("Quiet hours start"), required=False, widget=forms.TimeInput(attrs={"type": "time"})
    )
    quiet_end = forms.TimeField(
        label=_("Quiet hours end"), required=False, widget=forms.TimeInput(attrs={"type": "time"})
    )
    quiet_timezone = forms.CharField(
        label=_("Time zone"),
        required=False,
        max_length=64,
        help_text=_("For example Europe/Paris or Asia/Tokyo. No email is sent in quiet hours."),
    )

    def __init__(self, *args: Any, kinds: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.kinds = kinds
        for kind in reversed(kinds):
            field = forms.BooleanField(label=NOTIFICATION_LABELS.get(kind, kind), required=False)
            self.fields = {f"email_{kind}": field, **self.fields}

    def changes(self) -> dict[str, Any]:
        data = self.cleaned_data
        result: dict[str, Any] = {f"email_{kind}": data[f"email_{kind}"] for kind in self.kinds}
        if data["quiet_start"] and data["quiet_end"]:
            result["quiet_hours"] = {
                "start": data["quiet_start"].strftime("%H:%M"),
                "end": data["quiet_end"].strftime("%H:%M"),
                "timezone": data["quiet_timezone"] or "UTC",
            }
        else:
            result["quiet_hours"] = None
        return result


class WebhookForm(forms.Form):
    url = forms.URLField(label=_("Webhook URL"), max_length=500, assume_scheme="https")
    kinds = forms.MultipleChoiceField(
        label=_("Send only these notifications (none ticked: all)"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        choices=[(kind, label) for kind, label in NOTIFICATION_LABELS.items()],
    )

    def clean_url(self) -> str:
        url = str(self.cleaned_data["url"])
        problem = webhook_url_problem(url)
        if problem:
            raise forms.ValidationError(problem)
        return url


class TokenForm(forms.Form):
    name = forms.CharField(label=_("Token name"), max_length=64, required=False)
    play = forms.BooleanField(
        label=_("May play moves (otherwise read only)"), required=False, initial=True
    )


class LeaderboardForm(forms.Form):
    """A rating pool of one game (the ``game_type`` asked for, else Indulgence)."""

    game_type = forms.ChoiceField(
        choices=[(key, key) for key in kinds.KINDS], widget=forms.HiddenInput, required=False
    )
    variant = forms.ChoiceField(label=_("Variant"))  # the kind's variants (__init__)
    player_count = forms.TypedChoiceField(
        label=_("Players"), choices=[(3, "3"), (4, "4")], coerce=int
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.kind_key = _game_type_of(self.data if self.is_bound else None, kinds.DEFAULT)
        meta = kinds.get(self.kind_key).meta
        self.fields["game_type"].initial = self.kind_key
        self.fields["variant"].choices = _variant_choices(self.kind_key)  # type: ignore[attr-defined]
        self.fields["player_count"].choices = [  # type: ignore[attr-defined]
            (n, str(n)) for n in meta.rated_player_counts
        ]

    def clean_game_type(self) -> str:
        return self.kind_key


class DisplayNameForm(forms.Form):
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=64,
        required=False,
        help_text=_("Shown at tables and on the leaderboard. Leave it empty to use your username."),
    )

    def __init__(self, *args: Any, owner: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.owner = owner

    def clean_display_name(self) -> str:
        """NFKC (as usernames), no hidden characters, not another account's name."""
        name = unicodedata.normalize("NFKC", self.cleaned_data["display_name"])
        if has_hidden_characters(name):
            raise forms.ValidationError(
                _("A name may not contain control, format or invisible characters.")
            )
        name = " ".join(name.split())
        if name and self.owner is not None and name_used_by_another(name, owner=self.owner):
            raise forms.ValidationError(_("That name is already used by another player."))
        return name
