"""Schreiber's data: groups and their rosters, sessions, deals, and the change history.

Deals store what the score keeper recorded, keyed by player id (so renaming a player
never touches history); scores are derived by replaying the deals through the referee
and cached per deal so that the scoreboard costs the same however long a session is.
The database enforces the invariants: one deal per number and session, one seat per
player, player names unique within a group, at most one player per account in a group.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from . import gamechoices
from .fields import MAX_CATEGORY, MAX_SESSION_NAME, MAX_SESSION_NOTE


class Group(models.Model):
    """A *Stammtisch*: people who play together."""

    name = models.CharField(_("name"), max_length=80)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name

    @property
    def title(self) -> str:
        """The name to show. A guest's group has none (scorepad/guests.py: interface words
        stored as its name would stay in the language of the moment it was made): it is
        shown as played without an account, in the reader's language."""
        return self.name or gettext("Played without an account")


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", _("owner")
        EDITOR = "editor", _("editor")
        VIEWER = "viewer", _("viewer")

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.VIEWER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["group", "user"], name="one_membership_per_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.group} ({self.role})"


class Player(models.Model):
    """A name on the group's roster; sessions seat players, deals refer to them by id.

    ``user``: the account of the person behind the name, if somebody said so ("this is
    me"); at most one player per account in a group. Statistics across groups follow it.
    """

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=40)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="players",
    )
    #: A ranking of its own beside the overall one ("Damen", "Jugend"; docs/tournaments.md,
    #: "Categories"): 1–20 characters, or "" for none.
    category = models.CharField(_("category"), max_length=MAX_CATEGORY, blank=True,
                                default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                "group", Lower("name"), name="player_name_unique_in_group"
            ),
            models.UniqueConstraint(
                fields=["group", "user"], condition=models.Q(user__isnull=False),
                name="one_player_per_user_in_group",
            ),
        ]

    def __str__(self) -> str:
        return self.name


def game_choices() -> list[tuple[str, str]]:
    """Every game of the registry (``scorepad.gamechoices``): a new game needs no
    migration."""
    return gamechoices.choices()


class Session(models.Model):
    """An evening at the table: one game family, frozen rules, seated players."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        CLOSED = "closed", _("closed")

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="sessions")
    game = models.CharField(max_length=20, choices=game_choices)
    preset = models.CharField(max_length=30)
    #: Every rule parameter as it was when the session started; never changed afterwards.
    rules = models.JSONField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    first_dealer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    stake = models.DecimalField(max_digits=14, decimal_places=4, null=True, blank=True)
    currency = models.CharField(max_length=3, blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    #: Bumped by every change to the session or its deals: the scoreboard's ETag.
    version = models.PositiveIntegerField(default=0)
    #: The replayed state after the last deal (scores, dealer, game, pending collapses).
    state = models.JSONField(default=dict)
    #: The read-only watch link's token (256 bits from ``secrets``); None: no link.
    watch_token = models.CharField(max_length=64, null=True, blank=True, unique=True)
    #: Names the session in export files: importing the same file twice into a group is
    #: refused (a copy in another group keeps the uid).
    uid = models.UUIDField(default=uuid.uuid4, editable=False)
    #: What the table calls the evening ("Kirtag at Hofer's"); blank: no name.
    name = models.CharField(_("name"), max_length=MAX_SESSION_NAME, blank=True, default="")
    #: The evening's day: the day it was started (local time) unless somebody says
    #: otherwise. The lists, the statistics' seasons and the ratings go by it.
    date = models.DateField(_("date"), default=timezone.localdate)
    #: Anything the table wants to remember about the evening, several lines.
    note = models.TextField(_("note"), max_length=MAX_SESSION_NOTE, blank=True, default="")

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["group", "uid"], name="session_uid_unique_in_group"),
        ]

    def __str__(self) -> str:
        return self.name or f"{self.get_game_display()} {self.date:%Y-%m-%d}"


class Seat(models.Model):
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["session", "position"], name="one_player_per_seat"),
            models.UniqueConstraint(fields=["session", "player"], name="one_seat_per_player"),
        ]

    def __str__(self) -> str:
        return f"seat {self.position} of {self.session_id}"


class Deal(models.Model):
    """One recorded deal and, cached, what the replay made of it."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=20)
    #: The deal as recorded, player names replaced by player ids.
    data = models.JSONField()
    #: The replayed outcome (dealer, game number, multiplier, deltas, scores after, ...).
    result = models.JSONField(default=dict)
    version = models.PositiveIntegerField(default=1)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="one_deal_per_number"),
        ]

    def __str__(self) -> str:
        return f"deal {self.number} of session {self.session_id}"


class FinishedGame(models.Model):
    """A game that a deal ended (where the game says so: ``finished_game``): its number,
    final scores and winners (player ids), as the ending deal's result says. The session's
    running state lists only the most recent of them (and how many there are), so that
    recording a deal reads and writes the same few hundred bytes at deal 10 and at deal
    10,000; older pages of the scoreboard and the money read them here. Written with the
    deal that ends the game, written again by every replay."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE,
                                related_name="finished_games")
    number = models.PositiveIntegerField()
    #: {"number", "final_scores", "winners"}, by player id (the game module's shape).
    summary = models.JSONField()

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="one_row_per_game"),
        ]

    def __str__(self) -> str:
        return f"game {self.number} of session {self.session_id}"


class DealEvent(models.Model):
    """Append-only history: every change to a session's deals, who, when, before, after."""

    class Action(models.TextChoices):
        CREATE = "create", _("recorded")
        UPDATE = "update", _("corrected")
        DELETE = "delete", _("deleted")

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="events")
    deal_number = models.PositiveIntegerField()
    action = models.CharField(max_length=10, choices=Action.choices)
    before = models.JSONField(null=True)
    after = models.JSONField(null=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    #: Came from an export file (its original time kept in ``at``), not a change made here.
    imported = models.BooleanField(default=False)
    #: Who made an imported change, as the file names them (no account is linked).
    imported_user = models.CharField(max_length=150, blank=True, default="")

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{self.action} deal {self.deal_number} of session {self.session_id}"

    @property
    def who(self) -> str | None:
        """The username behind the change: the account's, or the one an import named."""
        if self.user is not None:
            return str(self.user.get_username())
        return self.imported_user or None


class SessionEvent(models.Model):
    """Append-only: the session closed or reopened, by whom and when. Its history page
    lists these among the changes of its deals (``DealEvent``)."""

    class Action(models.TextChoices):
        CLOSE = "close", _("Session closed")
        REOPEN = "reopen", _("Session reopened")

    session = models.ForeignKey(Session, on_delete=models.CASCADE,
                                related_name="status_events")
    action = models.CharField(max_length=10, choices=Action.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{self.action} session {self.session_id}"


class Invite(models.Model):
    """A link that lets logged-in users join a group with a role: unguessable, expiring,
    revocable, good for ``max_uses`` people."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=64, unique=True)
    role = models.CharField(max_length=10, choices=Membership.Role.choices)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    #: How many people may join with it, and how many did.
    max_uses = models.PositiveIntegerField(default=1)
    uses = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"invite to {self.group} as {self.role}"


class Invitation(models.Model):
    """A personal invitation: an owner asks one account to join the group with a role.

    Nobody becomes a member without consenting: the account joins when it accepts
    (scorepad/sharing.py, ``invitation_accept``). A pending invitation is open until
    ``expires_at``; an account has at most one pending invitation per group (inviting it
    again updates that one)."""

    class Status(models.TextChoices):
        PENDING = "pending"
        ACCEPTED = "accepted"
        DECLINED = "declined"
        REVOKED = "revoked"

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="invitations")
    role = models.CharField(max_length=10, choices=Membership.Role.choices)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    #: When it was (last) sent: inviting again renews it.
    sent_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-sent_at"]
        constraints = [
            models.UniqueConstraint(fields=["group", "user"],
                                    condition=models.Q(status="pending"),
                                    name="one_pending_invitation_per_account"),
        ]

    def __str__(self) -> str:
        return f"{self.user} invited to {self.group} as {self.role} ({self.status})"


class Removal(models.Model):
    """When a member was last removed from a group or given a smaller role: no invitation
    made before then lets them in (or up) again; they need a new one."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["group", "user"], name="one_removal_per_member"),
        ]

    def __str__(self) -> str:
        return f"{self.user} out of {self.group} at {self.at}"


class Registration(models.Model):
    """A new account, or a session started without one, by the address it came from:
    each kind is limited per address and hour (``SCHREIBER_SIGNUPS_PER_HOUR``,
    ``SCHREIBER_GUEST_SESSIONS_PER_HOUR``). Rows older than an hour are deleted."""

    class Kind(models.TextChoices):
        ACCOUNT = "account"
        GUEST = "guest"  # a session started without an account ("Just play")

    address = models.CharField(max_length=45)
    at = models.DateTimeField(db_index=True)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.ACCOUNT)

    class Meta:
        indexes = [models.Index(fields=["address", "at"], name="registration_address_at")]

    def __str__(self) -> str:
        return f"{self.address} at {self.at}"


class IdempotencyKey(models.Model):
    """The first answer to a write sent with an ``Idempotency-Key``: a retry gets it again."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=200)
    fingerprint = models.CharField(max_length=64)  # method, path and body, hashed
    status = models.PositiveSmallIntegerField()
    response = models.JSONField(null=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="one_answer_per_key"),
        ]

    def __str__(self) -> str:
        return f"{self.key} ({self.status})"


class AccessGeneration(models.Model):
    """The access generation of a user (``ug:<id>``), a group (``gg:<id>``) or a watch
    link (``wg:<session id>``): a number raised in the transaction of every change that
    ends or narrows access (a revoked token, a removed member, a deactivated account, a
    password change, a log-out). Cache entries that stand in for the database
    (scorepad.cache.logins, scorepad.cache.grants) name the number they were read under; the
    shared cache keeps a copy of the number, and the database's is the truth whenever
    the cache has none. A key without a row is at 0."""

    key = models.CharField(max_length=40, primary_key=True)
    number = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.key} at {self.number}"


# --- tournaments (docs/tournaments.md) ------------------------------------------------------


def default_tiebreaks() -> list[str]:
    """What a tournament compares after points unless told otherwise."""
    return ["score", "wins"]


class Tournament(models.Model):
    """A prize evening at several tables: players registered at the door, rounds drawn to
    tables, every table an ordinary session of the tournament's game and frozen rules,
    one ranking. A group's owners and editors direct it."""

    class Status(models.TextChoices):
        REGISTERING = "registering", _("registering")
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")

    class RoundEnds(models.TextChoices):
        GAME = "game", _("after the game")
        DEALS = "deals", _("after a number of deals")

    class Scoring(models.TextChoices):
        PLACEMENT = "placement", _("placement")
        SCORE = "score", _("score")
        COMBINED = "combined", _("combined")

    class Draw(models.TextChoices):
        RANDOM = "random", _("random")
        SWISS = "swiss", _("swiss")

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="tournaments")
    name = models.CharField(_("name"), max_length=80)
    game = models.CharField(max_length=20, choices=game_choices)
    preset = models.CharField(max_length=30)
    #: Every rule parameter, frozen when the tournament is made; each table's session
    #: gets the same.
    rules = models.JSONField()
    #: The fewest and most players the frozen rules seat at a table.
    seats_fewest = models.PositiveSmallIntegerField()
    seats_most = models.PositiveSmallIntegerField()
    rounds = models.PositiveSmallIntegerField()
    round_ends = models.CharField(max_length=10, choices=RoundEnds.choices)
    deals_per_round = models.PositiveIntegerField(null=True, blank=True)
    table_size = models.PositiveSmallIntegerField()
    scoring = models.CharField(max_length=10, choices=Scoring.choices)
    draw = models.CharField(max_length=10, choices=Draw.choices)
    stake = models.DecimalField(max_digits=14, decimal_places=4, null=True, blank=True)
    currency = models.CharField(max_length=3, blank=True, default="")
    #: The day it is played (a season counts it by this day).
    date = models.DateField(_("date"), default=timezone.localdate)
    #: The formats (docs/tournaments.md, "Tournament formats"): ``combined`` scoring's
    #: points per place at a table (decimal strings), the tie-breaks after points in
    #: order, the final's tables (0: no final), whether a table's result needs a seated
    #: player's confirmation, the entry fee (in ``currency``) and the prize list
    #: (``{"place", "percent" | "amount" | "item"}``, amounts and percents as strings).
    rank_points = models.JSONField(default=list, blank=True)
    tiebreaks = models.JSONField(default=default_tiebreaks)
    final_tables = models.PositiveSmallIntegerField(default=0)
    confirm_results = models.BooleanField(default=False)
    entry_fee = models.DecimalField(max_digits=14, decimal_places=4, null=True, blank=True)
    prizes = models.JSONField(default=list, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices,
                              default=Status.REGISTERING)
    #: How many of the last closed rounds the screen leaves out (a surprise at the
    #: prize-giving).
    screen_hides_rounds = models.PositiveSmallIntegerField(default=0)
    #: The public screen's token (256 bits from ``secrets``).
    screen_token = models.CharField(max_length=64, unique=True)
    #: Bumped by every change the ranking or the plan can show: the ranking's ETag.
    version = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    uid = models.UUIDField(default=uuid.uuid4, editable=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["group", "uid"],
                                    name="tournament_uid_unique_in_group"),
        ]

    def __str__(self) -> str:
        return self.name


class Entrant(models.Model):
    """A registered player of a tournament (a name of the group's roster), with a start
    number. Withdrawn players keep their results and are not drawn again."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="entrants")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    number = models.PositiveIntegerField()
    withdrawn = models.BooleanField(default=False)
    #: Has paid the entry fee at the door.
    paid = models.BooleanField(default=False)
    #: The draw by lot (1 = best), made when round 1 is drawn (a latecomer's when they
    #: register), where the tournament needs one; None until then.
    lot = models.PositiveIntegerField(null=True, blank=True)
    registered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"],
                                    name="one_start_number_per_entrant"),
            models.UniqueConstraint(fields=["tournament", "player"],
                                    name="one_entry_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.number} in {self.tournament_id}"


class TournamentRound(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("open")
        CLOSED = "closed", _("closed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="round_set")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    #: Closed with unfinished tables (each stands as it is).
    forced = models.BooleanField(default=False)
    #: The final: drawn after the last of the tournament's rounds, by standing.
    final = models.BooleanField(default=False)
    drawn_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"],
                                    name="one_round_per_number"),
        ]

    def __str__(self) -> str:
        return f"round {self.number} of {self.tournament_id}"


class TournamentTable(models.Model):
    """One table of a round: an ordinary session, its phone's code, and (once the round
    is closed) its result, kept so that the ranking never replays a deal."""

    round = models.ForeignKey(TournamentRound, on_delete=models.CASCADE,
                              related_name="tables")
    number = models.PositiveSmallIntegerField()
    session = models.OneToOneField(Session, on_delete=models.CASCADE,
                                   related_name="tournament_table")
    #: ``Authorization: Table <code>`` (256 bits from ``secrets``); ends with the round.
    code = models.CharField(max_length=64, unique=True)
    #: {"finished": bool, "scores": {player id: "p/q"}} as the table stood when the round
    #: was closed, and again after every correction since.
    result = models.JSONField(default=dict)
    #: The seated player who confirmed the finished table's result, and when; cleared by
    #: any later correction of its deals.
    confirmed_by = models.CharField(max_length=40, blank=True, default="")
    confirmed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="one_table_per_number"),
        ]

    def __str__(self) -> str:
        return f"table {self.number} of {self.round}"


class Guest(models.Model):
    """Somebody playing without an account ("Just play"): a real account that cannot log
    in with a password (so that every permission of the group's sessions works as for
    anybody), owning one group of its own that no page shows as a group. The phone keeps
    ``token`` in a signed, long-lived cookie (scorepad/guests.py). Signing up on the same
    phone makes the group the new account's; a guest never claimed is removed after
    ``SCHREIBER_GUEST_DAYS`` without use (``manage.py prune_guests``)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="guest")
    group = models.OneToOneField(Group, on_delete=models.CASCADE, related_name="guest")
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"guest {self.user_id}"


def default_cup_points() -> list[int]:
    return [25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]


class Season(models.Model):
    """A club's year (docs/tournaments.md, "Seasons"): the group's evenings and tournaments
    of one game between two days are its events; each gives its players cup points by
    their place, and the standings add up the best of them. Nothing is stored but the
    choices: the standings are computed from the events, so a correction of any deal moves
    them at once."""

    class Events(models.TextChoices):
        TOURNAMENTS = "tournaments", _("tournaments")
        EVENINGS = "evenings", _("evenings")
        BOTH = "both", _("evenings and tournaments")

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=80)
    game = models.CharField(max_length=20, choices=game_choices)
    start = models.DateField(_("from"))
    end = models.DateField(_("until"))
    events = models.CharField(max_length=12, choices=Events.choices, default=Events.BOTH)
    #: Cup points of places 1, 2, … (1–50 numbers ≥ 0; beyond the list a place earns 0).
    cup_points = models.JSONField(default=default_cup_points)
    #: Only the best N results count (None: all of them).
    best_of = models.PositiveSmallIntegerField(null=True, blank=True)
    #: Fewer events than this: not qualified, standing after every qualified player.
    min_events = models.PositiveSmallIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    uid = models.UUIDField(default=uuid.uuid4, editable=False)

    class Meta:
        ordering = ["-start", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["group", "uid"], name="season_uid_unique_in_group"),
        ]

    def __str__(self) -> str:
        return self.name
