"""HTML forms: they only parse what a person typed or tapped; the referee judges it.
(A game's deal form is its module's: ``scorepad.games``.)"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from referee.rules import PARAMETER_NAMES, PRESETS

from . import games
from .ids import parse_count
from .models import Group, Player, Season, Tournament, default_cup_points
from .tournaments.ranking import DEFAULT_TIEBREAKS

#: The tie-breaks in words (docs/tournaments.md, "Tournament formats").
TIEBREAK_CHOICES = [("score", _("the score")), ("wins", _("rounds won")),
                    ("best_round", _("the best single round")), ("lot", _("by lot"))]

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


class RulesChoice(forms.Form):
    """The game, its preset and house rules, as "Start a session" offers them (the
    game's own parts: ``start_parts``)."""

    game = forms.ChoiceField(choices=games.choices, required=False, label=_("Game"),
                             widget=forms.RadioSelect)
    #: The presets the form offers (a game that has them shows them: ``start_parts``);
    #: none picked, the game's own default rules.
    preset = forms.ChoiceField(choices=[(p.name, p.title) for p in PRESETS.values()],
                               required=False, label=_("Rules"), widget=forms.RadioSelect)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # the registry's of the moment: its first game, and the preset that game starts
        # with when the form offers it
        self.fields["game"].initial = games.default()
        self.fields["preset"].initial = default_preset(self.fields["preset"])
        for name in PARAMETER_NAMES:
            self.fields[f"rule_{name}"] = forms.CharField(required=False, max_length=200)

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


class SessionForm(RulesChoice):
    """Start a session: group, preset, house rules, seats in clockwise order, first dealer."""

    group = forms.ModelChoiceField(queryset=Group.objects.none(), required=False,
                                   label=_("Group"))
    new_group = forms.CharField(max_length=80, required=False, label=_("or a new group"))
    stake = forms.CharField(max_length=20, required=False, label=_("Stake (optional)"))
    currency = forms.CharField(max_length=3, required=False, initial="EUR",
                               label=_("Currency"))
    dealer = forms.TypedChoiceField(choices=[(i, i + 1) for i in range(MAX_SEATS)],
                                    coerce=int, required=False, label=_("deals first"),
                                    widget=forms.RadioSelect)

    def __init__(self, *args: Any, groups: Any = None, needs_group: bool = True,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: False without an account: the session goes to the guest's own group.
        self.needs_group = needs_group
        if groups is not None:
            self.fields["group"].queryset = groups  # type: ignore[attr-defined]
        for i in range(MAX_SEATS):
            self.fields[f"seat_{i}"] = forms.CharField(
                max_length=40, required=False, label=_("Seat %(n)s") % {"n": i + 1}
            )

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


#: How many tie-breaks the form offers, in order.
TIEBREAK_FIELDS = 4


class TournamentForm(RulesChoice):
    """Make a tournament (docs/tournaments.md, "Making a tournament"): the game and its
    rules as "Start a session" offers them, and every choice of the tournament as typed
    or tapped; the services check them (``tournament_create``)."""

    name = forms.CharField(label=_("Name"), required=False)
    rounds = forms.CharField(label=_("Rounds"), required=False, initial="3")
    round_ends = forms.ChoiceField(label=_("A round ends"), initial="game", required=False,
                                   widget=forms.RadioSelect,
                                   choices=Tournament.RoundEnds.choices)
    deals_per_round = forms.CharField(label=_("Deals per round"), required=False)
    table_size = forms.CharField(label=_("Players at a table"), required=False, initial="4")
    scoring = forms.ChoiceField(label=_("Points for a round"), initial="placement",
                                required=False,
                                widget=forms.RadioSelect, choices=[
                                    ("placement", _("by the place at the table")),
                                    ("score", _("the score itself")),
                                    ("combined", _("the score plus rank points"))])
    rank_points = forms.CharField(label=_("Rank points"), required=False)
    draw = forms.ChoiceField(label=_("Draw from round 2 on"), initial="random", required=False,
                             widget=forms.RadioSelect, choices=[
                                 ("random", _("at random, keeping apart who met")),
                                 ("swiss", _("by standing (swiss)"))])
    final_tables = forms.CharField(label=_("Final tables"), required=False, initial="0")
    confirm_results = forms.BooleanField(label=_("Players confirm their table's result"),
                                         required=False)
    date = forms.CharField(label=_("Date"), required=False)
    entry_fee = forms.CharField(label=_("Entry fee"), required=False)
    currency = forms.CharField(label=_("Currency"), required=False, initial="EUR")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        offered = games.for_tournaments()
        self.fields["game"].choices = [(n, games.get(n).TITLE) for n in offered]  # type: ignore[attr-defined]
        self.fields["game"].initial = offered[0]
        self.fields["date"].initial = timezone.localdate().isoformat()
        choices = [("", gettext("—")), *TIEBREAK_CHOICES]
        for i in range(1, TIEBREAK_FIELDS + 1):
            self.fields[f"tiebreak_{i}"] = forms.ChoiceField(
                label=_("Tie-break %(n)s") % {"n": i}, required=False, choices=choices,
                initial=dict(enumerate(DEFAULT_TIEBREAKS, 1)).get(i, ""))

    #: A line for each choice: what it means, with an example (docs/tournaments.md,
    #: "Making a tournament").
    HELP = {
        "name": _("What the screen and the printed ranking say, e.g. “Herbstturnier "
                  "2026”."),
        "rounds": _("How many rounds everybody plays, e.g. 3 rounds of about an hour."),
        "round_ends": _("After the game: a table's round ends with its first game. After a "
                        "number of deals: e.g. after 6 deals, or earlier if the game ends."),
        "deals_per_round": _("Only when a round ends after a number of deals, e.g. 6 (every "
                             "deal counts, collapsed and passed ones too)."),
        "table_size": _("Where the count does not divide, some tables get one more or one "
                        "fewer: e.g. 13 players at tables of 4 sit at 5, 4 and 4."),
        "scoring": _("By the place: e.g. 3, 2, 1 and 0 points at a table of four. The score "
                     "itself: e.g. 20 for going out from 15 to −5. Plus rank points: e.g. "
                     "20 + 60 = 80 for the winner."),
        "rank_points": _("Only with rank points: the points for place 1, 2, 3, … at a table, "
                         "e.g. 60, 40, 20, 0; a place beyond the list earns none."),
        "draw": _("At random: e.g. 16 players at tables of 4 meet nobody twice in round 2. "
                  "By standing: e.g. the best four at table 1."),
        "tiebreak_1": _("Compared in this order after the points, e.g. first the score, then "
                        "the rounds won; by lot (drawn with round 1) leaves no two players "
                        "on one place."),
        "final_tables": _("After the last round the best play a final, e.g. 1 table: the "
                          "best four; 0: no final."),
        "confirm_results": _("A finished table counts once a player seated there taps "
                             "their name on the table's phone, e.g. for money prizes."),
        "date": _("The day it is played, e.g. 2026-11-28; a season counts it by this day."),
        "entry_fee": _("What each player pays at the door, e.g. 5.00 EUR; prizes can be "
                       "shares of the pot (set them up on the tournament's page)."),
    }

    def about(self) -> dict[str, dict[str, str]]:
        """Each choice's line and its errors, for the template."""
        return {name: {"help": str(line),
                       "error": " ".join(str(e) for e in self.errors.get(name, []))}
                for name, line in self.HELP.items()}

    def tiebreak_fields(self) -> list[Any]:
        return [self[f"tiebreak_{i}"] for i in range(1, TIEBREAK_FIELDS + 1)]

    def choices(self) -> dict[str, Any]:
        """What ``tournament_create`` takes, as typed (it checks everything)."""
        data = self.data
        text = lambda f: (data.get(f) or "").strip()  # noqa: E731
        game = data.get("game", "")
        preset, overrides = (games.get(game).form_rules(
            {"preset": data.get("preset") or None, "overrides": self.overrides()})
            if game in games.for_tournaments() else (None, None))
        out: dict[str, Any] = {
            "name": data.get("name", ""), "game": game,
            "preset": preset, "overrides": overrides or None,
            "rounds": parse_count(data.get("rounds")), "round_ends": data.get("round_ends", ""),
            "deals_per_round": parse_count(data.get("deals_per_round")),
            "table_size": parse_count(data.get("table_size")),
            "scoring": data.get("scoring", ""), "draw": data.get("draw", ""),
            "tiebreaks": [t for t in (text(f"tiebreak_{i}")
                                      for i in range(1, TIEBREAK_FIELDS + 1)) if t],
            "final_tables": parse_count(text("final_tables") or "0"),
            "confirm_results": bool(data.get("confirm_results")),
            "entry_fee": text("entry_fee").replace(",", ".") or None,
            "currency": text("currency") or None,
        }
        if text("date"):
            out["date"] = text("date")
        if text("rank_points"):
            out["rank_points"] = [p for p in
                                  (x.strip() for x in text("rank_points").split(",")) if p]
        return out


class SeasonForm(forms.Form):
    """Make or change a season (docs/tournaments.md, "Seasons"): every choice typed or
    tapped as the API takes it, with its default filled in; the services check them
    (``season_create``, ``season_update``)."""

    name = forms.CharField(label=_("Name"), required=False)
    game = forms.ChoiceField(label=_("Game"), required=False, widget=forms.RadioSelect,
                             choices=games.choices)
    start = forms.CharField(label=_("From"), required=False)
    end = forms.CharField(label=_("Until"), required=False)
    events = forms.ChoiceField(label=_("Events that count"), required=False,
                               widget=forms.RadioSelect, choices=Season.Events.choices,
                               initial=Season.Events.BOTH)
    cup_points = forms.CharField(label=_("Cup points by place"), required=False,
                                 initial=", ".join(str(p) for p in default_cup_points()))
    best_of = forms.CharField(label=_("Best results that count"), required=False)
    min_events = forms.CharField(label=_("Events to qualify"), required=False, initial="0")

    #: A line for each choice: what it means, with an example.
    HELP = {
        "name": _("What the season's page and its printout say, e.g. “Jahreswertung 2026”."),
        "game": _("Only events of this game count."),
        "start": _("The first day whose events count, e.g. 2026-01-01."),
        "end": _("The last day whose events count, e.g. 2026-12-31."),
        "events": _("Finished tournaments, closed evenings with at least one deal, or both."),
        "cup_points": _("The cup points for place 1, 2, 3, … at an event; a place beyond "
                        "the list earns none, players sharing a place share its points."),
        "best_of": _("Only a player's best results count, e.g. 10 of 12 evenings; empty: "
                     "all of them."),
        "min_events": _("Who played fewer events stands after everybody qualified, e.g. 6; "
                        "0: everybody is qualified."),
    }

    def __init__(self, data: Any = None, *, season: Season | None = None) -> None:
        initial = None
        if season is not None:
            initial = {
                "name": season.name, "game": season.game, "start": season.start.isoformat(),
                "end": season.end.isoformat(), "events": season.events,
                "cup_points": ", ".join(str(p) for p in season.cup_points),
                "best_of": "" if season.best_of is None else str(season.best_of),
                "min_events": str(season.min_events)}
        super().__init__(data, initial=initial)
        if season is None:
            today = timezone.localdate()
            self.fields["game"].initial = games.names()[0]
            self.fields["start"].initial = today.replace(month=1, day=1).isoformat()
            self.fields["end"].initial = today.replace(month=12, day=31).isoformat()

    def about(self) -> dict[str, dict[str, str]]:
        """Each choice's line and its errors, for the template."""
        return {name: {"help": str(line),
                       "error": " ".join(str(e) for e in self.errors.get(name, []))}
                for name, line in self.HELP.items()}

    def choices(self) -> dict[str, Any]:
        """What ``season_create`` and ``season_update`` take, as typed: a count that is
        no count goes on as typed, so that the service names its field."""
        data = self.data
        text = lambda f: str(data.get(f) or "").strip()  # noqa: E731
        cup_points = [count_of(p) for p in (x.strip() for x in text("cup_points").split(","))
                      if p and p not in ("…", "...")]
        return {"name": text("name"), "game": text("game"), "start": text("start"),
                "end": text("end"), "events": text("events"), "cup_points": cup_points,
                "best_of": count_of(text("best_of")) if text("best_of") else None,
                "min_events": count_of(text("min_events")) if text("min_events") else 0}


def count_of(typed: str) -> Any:
    """A typed count as a number, or as typed when it is none (for the service to name)."""
    number = parse_count(typed)
    return typed if number is None else number


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
