"""HTML forms: they only parse what a person typed or tapped; the referee judges it."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from referee.deal import MULI
from referee.rules import PARAMETER_NAMES, PRESETS

from .models import Group

TRUMPS = [
    ("acorns", _("Acorns")),
    ("leaves", _("Leaves")),
    ("hearts", _("Hearts")),
    ("bells", _("Bells")),
]
MAX_SEATS = 6


class SignupForm(UserCreationForm):  # type: ignore[type-arg]
    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined,misc]
        model = get_user_model()
        fields = ("username",)


class GroupForm(forms.Form):
    name = forms.CharField(label=_("Name of the group"), max_length=80)


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=40)


class SessionForm(forms.Form):
    """Start a session: group, preset, house rules, seats in clockwise order, first dealer."""

    group = forms.ModelChoiceField(queryset=Group.objects.none(), required=False,
                                   label=_("Group"))
    new_group = forms.CharField(max_length=80, required=False, label=_("or a new group"))
    game = forms.ChoiceField(
        choices=[("mulatschak", "Mulatschak"), ("mura", "Mura"), ("muller_matz", "Müller Matz")],
        initial="mulatschak", required=False, label=_("Game"), widget=forms.RadioSelect)
    preset = forms.ChoiceField(choices=[(p.name, p.title) for p in PRESETS.values()],
                               initial="salzburg", label=_("Rules"),
                               widget=forms.RadioSelect)
    stake = forms.CharField(max_length=20, required=False, label=_("Stake (optional)"))
    currency = forms.CharField(max_length=3, required=False, initial="EUR",
                               label=_("Currency"))
    dealer = forms.TypedChoiceField(choices=[(i, i + 1) for i in range(MAX_SEATS)],
                                    coerce=int, required=False, label=_("deals first"),
                                    widget=forms.RadioSelect)

    def __init__(self, *args: Any, groups: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
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
        data["game"] = data.get("game") or "mulatschak"
        if not data.get("group") and not (data.get("new_group") or "").strip():
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


def inferred(counts: dict[str, int | None], total: int) -> dict[str, int]:
    """The blank counts that can only be one number: with one blank left, the remainder
    of ``total``; once the entered counts reach ``total``, 0 for every blank. Any other
    blank stays missing (the referee names it). Mulatschak tricks (5) and Mura tricks (8)
    follow this one rule; static/entry.js shows the same numbers as the user taps."""
    blanks = [p for p, n in counts.items() if n is None]
    entered = sum(n for n in counts.values() if n is not None)
    if len(blanks) == 1 and entered <= total:
        return {blanks[0]: total - entered}
    if len(blanks) > 1 and entered == total:
        return dict.fromkeys(blanks, 0)
    return {}


def _int_or_none(value: Any) -> int | None:
    try:
        return int(str(value))
    except (TypeError, ValueError):
        return None


class DealEntry:
    """The deal form's data, parsed from POST (or GET) parameters.

    Field names: ``kind``, ``declarer``, ``bid`` (1–5), ``trump``, ``home`` (repeatable),
    ``knocked``, ``t_<seat>`` tricks, ``x_<seat>`` cards exchanged, ``breaker``, and
    ``step`` (``<seat>:+1`` / ``<seat>:-1``) from the trick steppers.
    """

    def __init__(self, data: Any, seats: list[str]) -> None:
        self.seats = seats
        self.kind = data.get("kind") or "played"
        if self.kind not in ("played", "collapsed", "passed"):
            self.kind = "played"
        self.declarer = data.get("declarer") if data.get("declarer") in seats else None
        bid = _int_or_none(data.get("bid"))
        self.bid = bid if bid is not None and 1 <= bid <= MULI else None
        trump = data.get("trump")
        self.trump = trump if trump in dict(TRUMPS) else None
        home = data.getlist("home") if hasattr(data, "getlist") else data.get("home", [])
        self.home = [p for i, p in enumerate(seats) if str(i) in home]
        self.knocked = data.get("knocked") in ("1", "on", "true")
        self.tricks: dict[str, int | None] = {}
        self.exchanged: dict[str, int | None] = {}
        for i, p in enumerate(seats):
            self.tricks[p] = _int_or_none(data.get(f"t_{i}"))
            self.exchanged[p] = _int_or_none(data.get(f"x_{i}"))
        breaker = data.get("breaker")
        self.breaker = breaker if breaker in seats else None
        self._apply_step(data.get("step") or "")
        #: Blank tricks that can only be one number (the last player's: the remainder).
        self.auto = inferred(self.playing_tricks(), MULI)

    def playing_tricks(self) -> dict[str, int | None]:
        return {p: n for p, n in self.tricks.items() if p not in self.home}

    def _apply_step(self, step: str) -> None:
        seat, _, delta = step.partition(":")
        index = _int_or_none(seat)
        if index is None or not 0 <= index < len(self.seats) or delta not in ("+1", "-1"):
            return
        player = self.seats[index]
        auto = inferred(self.playing_tricks(), MULI)
        current = self.tricks.get(player)
        if current is None and player not in auto and delta == "-1":
            self.tricks[player] = 0  # "none" said with the stepper
            return
        current = auto.get(player, 0) if current is None else current
        others = sum(n or 0 for p, n in self.playing_tricks().items() if p != player)
        if delta == "+1" and others + current < MULI:
            self.tricks[player] = current + 1
        elif delta == "-1" and current > 0:
            self.tricks[player] = current - 1

    def tricks_total(self) -> int:
        return sum(n or 0 for n in self.playing_tricks().values())

    def tricks_left(self) -> int:
        return MULI - self.tricks_total() - sum(self.auto.values())

    def missing(self) -> dict[str, Any]:
        """What must be chosen before the referee can judge a played deal."""
        if self.kind != "played":
            return {}
        out: dict[str, Any] = {}
        if self.declarer is None:
            out["declarer"] = _("Who declared?")
        if self.bid is None:
            out["bid"] = _("How many tricks were bid?")
        if self.trump is None:
            out["trump"] = _("Which suit is trump?")
        return out

    def as_deal(self) -> dict[str, Any]:
        """The referee's deal object, with names."""
        if self.kind != "played":
            return {"kind": self.kind, "knocked": False}
        tricks = {p: n if n is not None else self.auto[p]
                  for p, n in self.playing_tricks().items() if n is not None or p in self.auto}
        exchanged = {p: n for p, n in self.exchanged.items() if n}
        return {
            "kind": "played",
            "declarer": self.declarer,
            "bid": self.bid,
            "trump": self.trump,
            "stayed_home": list(self.home),
            "tricks": tricks,
            "knocked": self.knocked,
            "exchanged": exchanged or None,
            "muli_breaker": self.breaker,
        }

    @classmethod
    def from_deal(cls, deal: dict[str, Any], seats: list[str]) -> DealEntry:
        """The form as it was filled for a recorded deal (names), for corrections."""
        from django.http import QueryDict

        q = QueryDict(mutable=True)
        q["kind"] = deal.get("kind", "played")
        for key in ("declarer", "bid", "trump"):
            if deal.get(key) is not None:
                q[key] = str(deal[key])
        if deal.get("muli_breaker"):
            q["breaker"] = deal["muli_breaker"]
        if deal.get("knocked"):
            q["knocked"] = "1"
        q.setlist("home", [str(i_of(seats, p)) for p in deal.get("stayed_home") or []])
        for i, p in enumerate(seats):
            if p in (deal.get("tricks") or {}):
                q[f"t_{i}"] = str(deal["tricks"][p])
            if (deal.get("exchanged") or {}).get(p):
                q[f"x_{i}"] = str(deal["exchanged"][p])
        return cls(q, seats)


def i_of(seats: list[str], player: str) -> int:
    return seats.index(player) if player in seats else -1
