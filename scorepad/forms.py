"""HTML forms: they only parse what a person typed or tapped; the referee judges it.
(A game's deal form is its module's: ``scorepad.games``.)"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from referee.rules import PARAMETER_NAMES, PRESETS

from . import games
from .models import Group, Player

MAX_SEATS = 6


class SignupForm(UserCreationForm):  # type: ignore[type-arg]
    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined,misc]
        model = get_user_model()
        fields = ("username",)


class GroupForm(forms.Form):
    name = forms.CharField(label=_("Name of the group"), max_length=80)


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=40)


class SessionAboutForm(forms.Form):
    """A session's name, date and note as typed; the services check them
    (``services.session_describe``), so every field is plain text here."""

    name = forms.CharField(label=_("Name of the evening"), required=False, strip=False)
    date = forms.CharField(label=_("Date"), required=False,
                           widget=forms.DateInput(attrs={"type": "date"}))
    note = forms.CharField(label=_("Note"), required=False, strip=False,
                           widget=forms.Textarea(attrs={"rows": 3}))


def about_form(session: Any, data: Any = None) -> SessionAboutForm:
    """The form of the session's name, date and note, filled with what it has (or
    ``data``, as typed)."""
    initial = {"name": session.name, "date": session.date.isoformat(), "note": session.note}
    return SessionAboutForm(data, initial=initial, auto_id="about_%s")


class SessionForm(forms.Form):
    """Start a session: group, preset, house rules, seats in clockwise order, first dealer."""

    group = forms.ModelChoiceField(queryset=Group.objects.none(), required=False,
                                   label=_("Group"))
    new_group = forms.CharField(max_length=80, required=False, label=_("or a new group"))
    game = forms.ChoiceField(choices=games.choices, required=False, label=_("Game"),
                             widget=forms.RadioSelect)
    #: The presets the form offers (a game that has them shows them: ``start_parts``);
    #: none picked, the game's own default rules.
    preset = forms.ChoiceField(choices=[(p.name, p.title) for p in PRESETS.values()],
                               required=False, label=_("Rules"), widget=forms.RadioSelect)
    stake = forms.CharField(max_length=20, required=False, label=_("Stake (optional)"))
    currency = forms.CharField(max_length=3, required=False, initial="EUR",
                               label=_("Currency"))
    dealer = forms.TypedChoiceField(choices=[(i, i + 1) for i in range(MAX_SEATS)],
                                    coerce=int, required=False, label=_("deals first"),
                                    widget=forms.RadioSelect)

    def __init__(self, *args: Any, groups: Any = None, needs_group: bool = True,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # the registry's of the moment: its first game, and the preset that game starts
        # with when the form offers it
        self.fields["game"].initial = games.default()
        self.fields["preset"].initial = default_preset(self.fields["preset"])
        #: False without an account: the session goes to the guest's own group.
        self.needs_group = needs_group
        if groups is not None:
            self.fields["group"].queryset = groups  # type: ignore[attr-defined]
        for i in range(MAX_SEATS):
            self.fields[f"seat_{i}"] = forms.CharField(
                max_length=40, required=False, label=_("Seat %(n)s") % {"n": i + 1}
            )
        for name in PARAMETER_NAMES:
            self.fields[f"rule_{name}"] = forms.CharField(required=False, max_length=200)

    def seat_fields(self) -> list[Any]:
        return [self[f"seat_{i}"] for i in range(MAX_SEATS)]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        data["game"] = data.get("game") or games.default()
        if self.needs_group and not data.get("group") \
                and not (data.get("new_group") or "").strip():
            self.add_error("group", _("Pick a group or name a new one."))
        seats = [(i, (data.get(f"seat_{i}") or "").strip()) for i in range(MAX_SEATS)]
        data["seats"] = [name for _, name in seats if name]
        dealer_index = data.get("dealer")
        data["dealer_name"] = None
        if dealer_index not in (None, ""):
            name = dict(seats).get(int(dealer_index), "")
            if not name:
                self.add_error("dealer", _("The first dealer must sit on a filled seat."))
            data["dealer_name"] = name or None
        data["overrides"] = self.overrides()
        return data

    def overrides(self) -> dict[str, Any]:
        """House rules typed as text: JSON-ish values (true, 3, null, {"declarer": ...})."""
        import json

        out: dict[str, Any] = {}
        for name in PARAMETER_NAMES:
            raw = (self.data.get(f"rule_{name}") or "").strip()
            if not raw:
                continue
            try:
                out[name] = json.loads(raw)
            except ValueError:
                out[name] = raw  # a word like "breaker": the referee checks it
        return out


def default_preset(field: Any) -> str | None:
    """The preset picked before anybody picks one: the default rules' preset of the first
    game of the registry whose presets the form offers (None: no game has them)."""
    offered = {str(value) for value, _label in field.choices}
    for game in games.registered():
        preset = game.rules(None, None).preset
        if preset in offered:
            return preset
    return None


class HistoryFilter(forms.Form):
    """The history's filters: every field optional; a bad value is reported, not used."""

    game = forms.ChoiceField(label=_("Game"), required=False,
                             choices=lambda: [("", _("any game")), *games.choices()])
    player = forms.TypedChoiceField(label=_("Player"), required=False,
                                    coerce=int, empty_value=None)
    since = forms.DateField(label=_("From"), required=False,
                            widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(label=_("To"), required=False,
                            widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, data: Any, players: list[Player]) -> None:
        super().__init__(data)
        self.fields["player"].choices = [("", gettext("anyone")),
                                         *((p.pk, p.name) for p in players)]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        since, until = data.get("since"), data.get("until")
        if since and until and since > until:
            self.add_error("until", gettext("“To” must not be before “From”."))
        return data
