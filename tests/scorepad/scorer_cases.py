"""Random sessions for the differential test of the phone's scorer (test_scorer.py), each
played through the server's own code as it goes: the game's ``rules`` (the frozen rules of
a new session), ``start``, ``normalize``, ``apply`` and ``board`` — what ``services`` does
with a deal — on a stand-in session. Players are plain strings (names, or ids like the
server's), the same ones the phone's scorer is given.

Every deal is drawn against the state the session has reached, mostly legal and sometimes
broken on purpose, so that the scores reach the score-dependent rules (≤ 5 may not bid,
≤ 3 must play and may not exchange), the games end, the collapses pile up to the
multiplier's cap and past the score limit, and every violation code turns up.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlencode

from referee.cards import GERMAN_SUITS
from referee.muller_matz import MAX_PLAYERS
from referee.mura import MURA_RULES, first_leader
from referee.rules import ALL_PASS_MODES, MAX_SCORE, MULATSCHAK_PACKS, MULI_FAIL_MODES, PRESETS
from referee.violations import RuleError
from scorepad import games
from scorepad.errors import InputError, RulesBroken
from scorepad.fields import MAX_PLAYERS as SEATS_MOST
from scorepad.loaded import Names

#: Seats drawn from names (with letters beyond Latin and beyond the BMP, whose order the
#: scorer must sort as Python does) or from ids like the server's own.
NAMES = ("Anna", "Béla", "Cilli", "Dominik", "Éva", "Zsófi", "Ödön", "李雷", "𝓜ax", "😀Eve",
         "anna-2", "Ω")
IDS = ("3", "12", "7", "101", "25", "9", "40", "1", "88", "56", "30", "2")
#: Who is not at the table (not a number: a JSON object keeps such keys in order).
STRANGER = "Zoltán?"


def _seats(rng: random.Random, count: int) -> list[str]:
    pool = IDS if rng.random() < 0.35 else NAMES
    return rng.sample(pool, count)


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


class Played:
    """A session on the server's code: the state after each deal and what each did."""

    def __init__(self, game: str, preset: str | None, overrides: dict[str, Any],
                 players: list[str], first_dealer: str,
                 resume: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> None:
        self.game = games.get(game)
        frozen = self.game.rules(preset, overrides)
        self.rules = {"preset": frozen.preset, "params": _json(frozen.params)}
        #: what the session changed of its preset (a failure names it: a switch turned)
        self.overrides = overrides
        self.players, self.first_dealer = players, first_dealer
        self.session = SimpleNamespace(preset=frozen.preset, rules=self.rules["params"],
                                       first_dealer_id=first_dealer, state=None)
        self.names = Names({p: p for p in players})
        self.state = self.game.start(self.session, players)  # type: ignore[arg-type]
        #: a session taken up where a server left it (the phone goes on from the last
        #: state the server sent): the scorer is given that state instead of a start
        self.resumed = resume is not None
        if resume is not None:
            self.state = resume(_json(self.state))
        self.session.state = self.state
        self.start = _json(self.state)
        self.first_board = self.board()
        self.deals: list[dict[str, Any]] = []
        self.steps: list[dict[str, Any]] = []
        self.before: list[dict[str, Any]] = []

    def board(self) -> dict[str, Any]:
        try:
            return _json(self.game.board(self.session, self.names))  # type: ignore[arg-type]
        except RuleError as e:
            return {"error": {"field": e.field, "code": e.code}}

    def play(self, deal: dict[str, Any]) -> dict[str, Any]:
        """Record ``deal`` as the server would; what it did."""
        self.deals.append(_json(deal))
        self.before.append(_json(self.state))
        try:
            stored = self.game.normalize(deal)
            result, state = self.game.apply(self.session, self.players,  # type: ignore[arg-type]
                                            self.state, stored)
        except RulesBroken as e:
            step: dict[str, Any] = {"ok": False, "violations": _json([v.as_dict()
                                                                      for v in e.violations])}
        except InputError as e:
            step = {"ok": False, "error": {"field": e.field, "code": e.code}}
        else:
            self.state = state
            self.session.state = state
            step = {"ok": True, "result": _json(result), "state": _json(state),
                    "board": self.board()}
        self.steps.append(step)
        return step

    def steps_state(self, k: int) -> dict[str, Any]:
        """The state deal ``k`` (from 0) was played on."""
        return self.before[k]

    def case(self) -> dict[str, Any]:
        """The session as the phone's scorer is given it."""
        return {"game": self.game.NAME, "rules": self.rules, "players": self.players,
                "first_dealer": self.first_dealer, "deals": self.deals,
                "state": self.start if self.resumed else None}

    def expected(self) -> dict[str, Any]:
        return {"start": self.start, "board": self.first_board, "steps": self.steps}


# --- Mulatschak -----------------------------------------------------------------------------

#: Every switch of the rules, as the referee has them: a new house rule is drawn here as
#: soon as it is a parameter (and the phone's scorer must follow it: test_scorer.py).
BOOLS = tuple(name for name, value in PRESETS["salzburg"].as_params().items()
              if isinstance(value, bool))


def _mulatschak_overrides(rng: random.Random) -> dict[str, Any]:
    """House rules drawn at random, each parameter from a stream of its own: a new
    parameter changes no other one's draws (nor what the session draws after)."""
    seed = rng.getrandbits(64)

    def own(name: str) -> random.Random:
        return random.Random(f"{seed} {name}")

    o: dict[str, Any] = {}
    for name in BOOLS:
        r = own(name)
        if r.random() < 0.25:
            o[name] = r.random() < 0.5
    if own("knocks carried over").random() < 0.25:  # knocks carried over a collapse need both
        o["knock_doubles"] = o["knock_survives_collapse"] = True
    choices: dict[str, tuple[float, tuple[Any, ...]]] = {
        "multiplier_cap": (0.3, (None, 1, 2, 4, 8, 64, 1 << 20)),
        "score_floor": (0.3, (None, 0, -5, 3, 10)),
        "start_score": (0.35, (4, 6, 8, 12, 15, 21, 30)),
        "target_score": (0.15, (0, -10, 3)),
        "trick_value": (0.2, (0, 1, 2, 3, 1000)),
        "no_trick_penalty": (0.15, (0, 2, 5, 1000)),
        "declarer_fail_penalty": (0.15, (0, 5, 10, 1000)),
        "stay_home_penalty": (0.15, (0, 1, 2, 1000)),
        "min_bid": (0.15, (1, 2, 3, 5)),
        "min_bid_hearts": (0.3, (1, 2, 3, 5)),
        "no_bid_at_or_below": (0.3, (None, 3, 5, 10, -100)),
        "must_play_at_or_below": (0.3, (None, 3, 5, 10)),
        "no_exchange_at_or_below": (0.3, (None, 3, 5, 10)),
        "max_exchange": (0.3, (0, 2, 3, 5, {"2": 5, "3": 4, "4": 3, "5": 2}, {"4": 1})),
        "muli_fail_mode": (0.3, MULI_FAIL_MODES),
        "all_pass": (0.3, ALL_PASS_MODES),
        "sit_out_at": (0.35, (None, 3, 4, 4, 5, 5, 6, 7)),
        "pack": (0.15, MULATSCHAK_PACKS),
    }
    for name, (p, values) in choices.items():
        r = own(name)
        if r.random() < p:
            o[name] = r.choice(values)
    for name in ("muli_win", "muli_fail"):
        r = own(name)
        if r.random() < 0.2:
            o[name] = {"declarer": r.randint(-30, 30), "others": r.randint(-30, 30)}
    r = own("players")
    if r.random() < 0.2:
        o["players_min"] = r.randint(2, 4)
        o["players_max"] = r.randint(o["players_min"], 7)
    return o


SWITCHES = {"on_sight": "exchange_on_sight", "ace_five": "exchange_ace_five",
            "seven_six": "exchange_seven_six", "bridge": "exchange_bridge"}


def _exchange(rng: random.Random, player: str, declarer: str, params: dict[str, Any]
              ) -> dict[str, Any]:
    forms = ["plain", "plain", "on_sight", "ace_five", "seven_six", "bridge"]
    if rng.random() < (0.6 if params["delayed_trump"] else 0.85):  # mostly the forms allowed
        forms = [f for f in forms if f not in SWITCHES or params[SWITCHES[f]]]
    form = rng.choice(forms)
    if form == "plain":
        entry: dict[str, Any] = {"form": "plain", "cards": rng.randint(0, 4)}
        if player == declarer or rng.random() < 0.1:  # the declarer's chain on sight
            up = rng.randint(0, 3)
            entry["face_up"] = up
            if rng.random() < 0.6:
                entry["face_up_kept"] = max(0, up - rng.randint(0, 2))
        return entry
    if form == "on_sight":
        return {"form": form, "refused": rng.random() < 0.4}
    if form == "bridge":
        return {"form": form, "face_up": rng.choice((0, 1, 1, 2, 3))}
    return {"form": form}


def _mulatschak_deal(rng: random.Random, s: Played) -> dict[str, Any]:
    params, players, state = s.rules["params"], s.players, s.state
    dealer = state["dealer"]
    sits_out = params["sit_out_at"] is not None and len(players) >= params["sit_out_at"]
    out = dealer if sits_out else None
    active = [p for p in players if p != out]
    r = rng.random()
    if r < 0.1:
        return {"kind": "collapsed",
                "knocked": rng.random() < (0.3 if params["knock_doubles"] else 0.01)}
    if r < 0.16:
        return {"kind": "passed",
                "knocked": rng.random() < (0.2 if params["knock_doubles"] else 0.01)}
    declarer = rng.choice(active) if rng.random() < 0.97 else rng.choice([*players, STRANGER])
    trump = rng.choice(GERMAN_SUITS) if rng.random() < 0.97 else "clubs"
    delayed = rng.random() < (0.25 if params["delayed_trump"] else 0.03)
    # a delayed trump was unknown at the bid: the lowest bid is min_bid's, hearts or not
    lowest = (params["min_bid_hearts"] if trump == "hearts"
              and not (delayed and params["delayed_trump"]) else params["min_bid"])
    bid = rng.choice((1, 2, 2, 3, 3, 3, 4, 4, 5))
    if rng.random() < 0.9:
        bid = max(bid, lowest)
    elif rng.random() < 0.3:
        bid = rng.choice((0, 6, -1))
    others = [p for p in active if p != declarer]
    scores = state["scores"] if not state["game_over"] else {}
    low = params["must_play_at_or_below"]
    careful = rng.random() < 0.85  # mostly, the table knows who may not stay home

    def may_stay(p: str) -> bool:
        return not careful or not (
            (trump == "hearts" and params["hearts_all_play"])
            or (bid == 5 and params["muli_all_play"])
            or (low is not None and scores.get(p, params["start_score"]) <= low))

    home = [p for p in others if may_stay(p) and rng.random() < 0.2]
    if home and len(home) == len(others) and rng.random() < 0.8:
        home.pop()
    if rng.random() < 0.03:
        home.append(declarer)
    playing = [p for p in active if p not in home]
    tricks: dict[str, int] = dict.fromkeys(playing, 0)
    left = 5
    if declarer in tricks and 1 <= bid <= 5:
        made = rng.random() < 0.65
        tricks[declarer] = rng.randint(bid, 5) if made else rng.randint(0, bid - 1)
        left -= tricks[declarer]
    rest = [p for p in playing if p != declarer] or playing
    for _ in range(left):
        if rest:
            tricks[rng.choice(rest)] += 1
    mutation = rng.random()
    if mutation < 0.03 and tricks:
        del tricks[rng.choice(list(tricks))]
    elif mutation < 0.05 and home:
        tricks[rng.choice(home)] = rng.randint(0, 1)
    elif mutation < 0.07 and tricks:
        tricks[rng.choice(list(tricks))] = rng.choice((6, -1))
    elif mutation < 0.09 and tricks:
        p = rng.choice(list(tricks))
        tricks[p] += rng.choice((1, -1)) if tricks[p] else 1
    elif mutation < 0.12 and sits_out:
        tricks[dealer] = 0
    elif mutation < 0.11:
        tricks[STRANGER] = 1
    deal: dict[str, Any] = {
        "kind": "played", "declarer": declarer, "bid": bid, "trump": trump,
        "stayed_home": home, "tricks": tricks,
        "knocked": rng.random() < (0.15 if params["knock_doubles"] else 0.01),
        "exchanged": None, "muli_breaker": None,
    }
    if rng.random() < 0.3:
        most = params["max_exchange"]
        most = most if isinstance(most, int) else most.get(str(len(active)), 5)
        deal["exchanged"] = {p: rng.randint(0, most if rng.random() < 0.9 else 5)
                             for p in playing if rng.random() < 0.6}
    if rng.random() < (0.6 if delayed else 0.2):
        exchanges = {p: _exchange(rng, p, declarer, params) for p in active if rng.random() < 0.5}
        if rng.random() < 0.1 and home:
            exchanges[home[0]] = _exchange(rng, home[0], declarer, params)
        deal["exchanges"] = exchanges
    if deal["exchanged"] and deal.get("exchanges") and rng.random() < 0.7:
        for p in deal["exchanges"]:  # one map a player, mostly
            deal["exchanged"].pop(p, None)
    if bid == 5 and rng.random() < 0.8:
        takers = [p for p in playing if p != declarer and tricks.get(p, 0) >= 1]
        deal["muli_breaker"] = rng.choice(takers) if takers and rng.random() < 0.85 else \
            rng.choice([*players, STRANGER])
    if delayed:
        deal["trump_delayed"] = True
        if rng.random() < 0.6:
            deal.setdefault("exchanges", {})
            deal["exchanges"] = dict(deal["exchanges"] or {})
            deal["exchanges"][declarer] = {"form": "bridge", "face_up": rng.choice((0, 1, 2))}
    return deal


def _mulatschak_resumed(rng: random.Random, params: dict[str, Any], players: list[str],
                        near_limit: bool = False) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A state the server may have reached: scores anywhere up to the limit, collapses and
    knocks pending, who stayed home, twenty recent games of many."""
    def resume(state: dict[str, Any]) -> dict[str, Any]:
        near = near_limit or rng.random() < 0.5
        for p in players:  # near the limit (its theme: just under it, so a penalty passes it)
            margin = rng.randint(0, 1 << rng.randint(0, 8 if near_limit else 44))
            sign = 1 if near_limit else rng.choice((1, -1))
            state["scores"][p] = sign * (MAX_SCORE - margin) if near else rng.randint(-50, 60)
        collapses = rng.randint(10 if near_limit else 0, 45)
        state["collapses"] = collapses
        if params["knock_doubles"] and params["knock_survives_collapse"]:
            state["knocks"] = rng.randint(0, collapses)
        state["previous_stayed_home"] = sorted(p for p in players if rng.random() < 0.3)
        state["dealer"] = rng.choice(players)
        state["deals"] = rng.randint(0, 500)
        state["game_number"] = rng.randint(1, 60)
        state["game_over"] = not near_limit and rng.random() < 0.15
        state["winners"] = [rng.choice(players)] if state["game_over"] else []
        total = rng.randint(0, 60)
        state["games_total"] = total
        state["games"] = [{"number": n, "final_scores": {p: rng.randint(-5, 40) for p in players},
                           "winners": [rng.choice(players)]}
                          for n in range(max(1, total - 19), total + 1)]
        return state
    return resume


#: What a Mulatschak session of a theme always has (besides its random house rules): every
#: switch the issue names gets sessions of its own, whatever the seed.
THEMES: dict[str, dict[str, Any]] = {
    "storm": {"collapse_doubles": True, "multiplier_cap": None, "trick_value": 1000},
    "limit": {"collapse_doubles": True, "multiplier_cap": None},  # taken up at the limit
    "sitting out": {"sit_out_at": 4, "players_max": 6},
    "too few playing": {"players_min": 4, "sit_out_at": 4, "players_max": 5},
    "knocks carried over": {"knock_doubles": True, "knock_survives_collapse": True},
    "cap": {"collapse_doubles": True, "multiplier_cap": 4},
    "floor": {"score_floor": 10, "start_score": 8},  # everybody starts below the floor
    "muli breaker": {"muli_fail_mode": "breaker", "muli_all_play": False},
    "muli trick takers": {"muli_fail_mode": "trick_takers"},
    "twice at home": {"no_stay_home_twice": True},
    "delayed trump": {"delayed_trump": True, "exchange_bridge": False},
    "all passed doubles": {"all_pass": "redeal_double", "knock_doubles": True,
                           "knock_survives_collapse": True},
    # and every switch of the rules the other way than its preset has it ("switch <name>"):
    # a house rule the phone's scorer does not follow yet differs there, whatever the draw
    **{f"switch {name}": {} for name in BOOLS},
}
#: The deals of a session that turns one switch: enough for the switch to count.
SWITCH_DEALS = 12


def mulatschak_session(rng: random.Random, deals: int, theme: str | None = None) -> Played:
    preset = rng.choice(list(PRESETS))
    #: a session with storms of collapses: the multiplier at its (implicit) cap, the
    #: scores past the limit
    stormy = theme == "storm" or (theme is None and rng.random() < 0.12)
    while True:
        overrides = _mulatschak_overrides(rng)
        if stormy:
            overrides["collapse_doubles"] = True
            if rng.random() < 0.7:
                overrides["multiplier_cap"] = None
            if rng.random() < 0.5:
                overrides["trick_value"] = 1000
        overrides.update(THEMES.get(theme or "", {}))
        if theme and theme.startswith("switch "):
            name = theme.removeprefix("switch ")
            overrides[name] = not PRESETS[preset].as_params()[name]
        try:
            frozen = games.get("mulatschak").rules(preset, overrides)
        except RuleError:
            continue
        break
    count = rng.randint(frozen.fewest, frozen.most)
    out_at = frozen.params["sit_out_at"]
    if out_at is not None and out_at <= frozen.most and rng.random() < 0.7:  # somebody sits out
        count = rng.randint(max(frozen.fewest, out_at), frozen.most)
    if theme == "too few playing":  # the fewest seated, one of them sitting out
        count = frozen.fewest
    players = _seats(rng, count)
    resumed = theme == "limit" or (theme is None and rng.random() < 0.2)
    resume = _mulatschak_resumed(rng, frozen.params, players, theme == "limit") if resumed else None
    s = Played("mulatschak", preset, overrides, players, rng.choice(players), resume)
    if theme and theme.startswith("switch "):
        deals = min(deals, SWITCH_DEALS)
    storms = sorted(rng.sample(range(deals), min(deals, 2))) if stormy else []
    k = 0
    while k < deals:
        if storms and k >= storms[0]:
            storms.pop(0)
            for _ in range(rng.randint(38, 44)):  # not counted among the session's deals
                s.play({"kind": "collapsed", "knocked": rng.random() < 0.3})
            continue
        s.play(_mulatschak_deal(rng, s))
        k += 1
    return s


# --- Mura -------------------------------------------------------------------------------------

PACK = MURA_RULES.card_pack


def _mura_game(rng: random.Random, players: list[str], dealer: str
               ) -> list[dict[str, Any]]:
    """A whole deal played by the rules (now and then a revoke): its tricks card by card."""
    cards = [c.code for c in PACK.cards]
    rng.shuffle(cards)
    size = len(cards) // len(players)
    hands = {p: cards[i * size:(i + 1) * size] for i, p in enumerate(players)}
    leader = first_leader(players, dealer)
    tricks = []
    for _ in range(size):
        start = players.index(leader)
        order = players[start:] + players[:start]
        played: dict[str, str] = {}
        led = None
        for p in order:
            hand = hands[p]
            follow = [c for c in hand if led is not None and c.split("-")[0] == led]
            card = rng.choice(follow) if follow and rng.random() < 0.997 else rng.choice(hand)
            hand.remove(card)
            played[p] = card
            led = led or card.split("-")[0]
        tricks.append({"leader": leader, "cards": played})
        best = order[0]
        for p in order[1:]:
            c, b = played[p].split("-"), played[best].split("-")
            if c[0] == led and PACK.rank_index(c[1]) < PACK.rank_index(b[1]):
                best = p
        leader = best
    return tricks


def _counted(tricks: list[dict[str, Any]], players: list[str]
             ) -> tuple[dict[str, int], dict[str, int]]:
    won, figures = dict.fromkeys(players, 0), dict.fromkeys(players, 0)
    for trick in tricks:
        order = list(trick["cards"])
        led = trick["cards"][order[0]].split("-")[0]
        best = order[0]
        for p in order[1:]:
            c, b = trick["cards"][p].split("-"), trick["cards"][best].split("-")
            if c[0] == led and PACK.rank_index(c[1]) < PACK.rank_index(b[1]):
                best = p
        won[best] += 1
        for p, code in trick["cards"].items():
            rank = code.split("-")[1]
            if rank in ("ace", "king", "ober", "unter"):
                figures[best] += 3 if rank == "ace" and p == best else 1
    return won, figures


def _mura_deal(rng: random.Random, s: Played) -> dict[str, Any]:
    players, dealer = s.players, s.state["dealer"]
    table = players if len(players) in (2, 4, 8) else players[:4]
    tricks = _mura_game(rng, table, dealer if dealer in table else table[0])
    if rng.random() < 0.55:
        won, figures = _counted(tricks, table)
        m = rng.random()
        if m < 0.04:
            p = rng.choice(table)
            figures[p] += rng.choice((1, -1, 2))
        elif m < 0.07:
            a, b = rng.sample(table, 2)
            won[a], won[b] = won[a] + 1, won[b] - 1
        elif m < 0.09:
            del figures[rng.choice(table)]
        elif m < 0.1:
            del won[rng.choice(table)]
        elif m < 0.11:
            won[STRANGER] = 0
        elif m < 0.12:
            figures[rng.choice(table)] = rng.choice((30, -1))
        elif m < 0.13:
            p = rng.choice(table)
            won[p], figures[p] = 0, 2
        return {"tricks": won, "figures": figures}
    m = rng.random()
    if m < 0.03:
        tricks[0]["leader"] = rng.choice(table)
    elif m < 0.05:
        t = rng.randrange(1, len(tricks))
        tricks[t]["leader"] = rng.choice(table)
    elif m < 0.07:
        a, b = rng.sample(range(len(tricks)), 2)
        p = rng.choice(list(tricks[a]["cards"]))
        q = rng.choice(list(tricks[b]["cards"]))
        tricks[a]["cards"][p] = tricks[b]["cards"][q]
    elif m < 0.08:
        t = rng.randrange(len(tricks))
        del tricks[t]["cards"][rng.choice(list(tricks[t]["cards"]))]
    elif m < 0.09:
        tricks.pop()
    elif m < 0.1:
        t = rng.randrange(len(tricks))
        tricks[t]["cards"][STRANGER] = "hearts-7"
    elif m < 0.11:
        t = rng.randrange(len(tricks))
        p = rng.choice(list(tricks[t]["cards"]))
        tricks[t]["cards"][p] = rng.choice(("hearts-6", "clubs-queen", "spades-2"))
    elif m < 0.14:  # written the way a person might type it
        for trick in tricks:
            for p, code in trick["cards"].items():
                code = code.replace("ace", "sau") if rng.random() < 0.5 else code
                trick["cards"][p] = rng.choice((code, code, code.upper(), f" {code}\t",
                                                code.title()))
    elif m < 0.15:
        t = rng.randrange(len(tricks))
        p = rng.choice(list(tricks[t]["cards"]))
        tricks[t]["cards"][p] = rng.choice(("hearts-11", "joker", "\ufeffhearts-7"))
    elif m < 0.16:
        t = rng.randrange(len(tricks))
        tricks[t]["leader"] = STRANGER
    return {"trick_cards": tricks}


def mura_session(rng: random.Random, deals: int, theme: str | None = None) -> Played:
    """A Mura session; its themes each change one of the rules a deal is checked and
    scored with (the seats, the figures a player needs, the figures a trick may hold: the
    number at a theme's end is its value)."""
    overrides: dict[str, Any] = {}
    if rng.random() < 0.6:
        overrides["zeros_per_mura"] = rng.randint(1, 12)
    if rng.random() < 0.2:
        overrides["figures_needed"] = rng.randint(1, 8)
    if theme == "two" or theme == "eight" or rng.random() < 0.15:
        overrides["players"] = {"two": 2, "eight": 8}.get(theme or "", rng.choice((2, 8)))
    if rng.random() < 0.2:
        overrides["max_figures_per_trick"] = rng.randint(1, 8)
    for name, label in (("figures_needed", "figures needed "),
                        ("max_figures_per_trick", "figures a trick ")):
        if (theme or "").startswith(label):  # the theme's value
            overrides[name] = int((theme or "").removeprefix(label))
    frozen = games.get("mura").rules(None, overrides)
    players = _seats(rng, frozen.fewest) if frozen.fewest <= len(NAMES) else \
        [f"P{i}" for i in range(frozen.fewest)]
    def resume(state: dict[str, Any]) -> dict[str, Any]:
        for p in players:
            state["mura"][p], state["zeros"][p] = rng.randint(0, 300), rng.randint(0, 40)
        state["deals"] = rng.randint(0, 200)
        return state

    s = Played("mura", None, overrides, players, rng.choice(players),
               resume if rng.random() < 0.2 else None)
    for _ in range(deals):
        s.play(_mura_deal(rng, s))
    return s


# --- Müller Matz --------------------------------------------------------------------------------


def _matz_deal(rng: random.Random, s: Played) -> dict[str, Any]:
    """The loser, or the whole finishing order (the deal's shape gives one of them)."""
    players = s.players
    if rng.random() < 0.55:
        return {"loser": rng.choice(players) if rng.random() < 0.95 else STRANGER}
    order = rng.sample(players, len(players))
    m = rng.random()
    if m < 0.05:
        order.append(order[0])
    elif m < 0.1:
        order.pop(rng.randrange(len(order)))
    elif m < 0.13:
        order.insert(rng.randrange(len(order) + 1), STRANGER)
    return {"finish_order": order}


def matz_session(rng: random.Random, deals: int, theme: str | None = None) -> Played:
    """A Müller Matz session; "crowd" seats more than the referee's default rules do,
    "most" as many as a session holds (SEATS_MOST) under the most any rules allow
    (MAX_PLAYERS), "few" raises the fewest seats."""
    overrides: dict[str, Any] = {}
    if theme in ("crowd", "most") or rng.random() < 0.35:
        overrides["players_max"] = {"crowd": 12, "most": MAX_PLAYERS}.get(
            theme or "", rng.choice((4, 10, 12, 12, 16, MAX_PLAYERS)))
    if theme == "few" or rng.random() < 0.1:
        overrides["players_min"] = rng.randint(2, min(overrides.get("players_max", 10),
                                                      SEATS_MOST))
    if rng.random() < 0.15:
        overrides["two_packs_from"] = rng.randint(2, 14)
    frozen = games.get("muller_matz").rules(None, overrides)
    most = min(frozen.most, SEATS_MOST)
    count = rng.randint(frozen.fewest, most)
    if most > 10 and (theme in ("crowd", "most") or rng.random() < 0.5):
        # more than the referee's default rules seat, up to all a session holds
        count = most if theme == "most" else rng.randint(11, most)
    players = _seats(rng, count)
    def resume(state: dict[str, Any]) -> dict[str, Any]:
        for p in players:
            state["losses"][p] = rng.randint(0, 30)
        state["games"] = sum(state["losses"].values())
        return state

    s = Played("muller_matz", None, overrides, players, players[-1],
               resume if rng.random() < 0.2 else None)
    for _ in range(deals):
        s.play(_matz_deal(rng, s))
    return s


#: (make a session, its share of the deals, the fewest and most deals a session, themes)
SESSIONS: tuple[tuple[Callable[..., Played], float, int, int, tuple[str, ...]], ...] = (
    (mulatschak_session, 0.6, 10, 80, tuple(THEMES)),
    (mura_session, 0.25, 5, 40, ("two", "eight", "figures needed 1", "figures needed 5",
                                 "figures needed 8", "figures a trick 4",
                                 "figures a trick 8")),
    (matz_session, 0.15, 5, 40, ("crowd", "most", "few")),
)


def sessions(seed: int, deals: int) -> list[Played]:
    """Random sessions of every game with at least ``deals`` deals in all: first one of each
    theme, then sessions of random house rules. Each session draws from a stream of its
    own, named by the seed, the game and its theme (or its number), so that what one
    session draws (a new house rule among its parameters, a new theme) changes no other."""
    out: list[Played] = []
    for make, share, fewest, most, themes in SESSIONS:
        wanted, made, number = int(deals * share) + 1, 0, 0
        for theme in themes:
            s = _session(make, f"{seed} {theme}", fewest, most, theme)
            made += len(s.deals)
            out.append(s)
        while made < wanted:
            s = _session(make, f"{seed} {number}", fewest, most, None)
            number += 1
            made += len(s.deals)
            out.append(s)
    return out


def _session(make: Callable[..., Played], name: str, fewest: int, most: int,
             theme: str | None) -> Played:
    rng = random.Random(f"{make.__name__} {name}")
    return make(rng, rng.randint(fewest, most), theme)


# --- saved forms -------------------------------------------------------------------------------

#: What a person or a tampered page may send for a count.
COUNTS = ("0", "1", "2", "3", "4", "5", "", "", "", "6", "x", "-1", " 3", "03", "²", "99")


def _pick(rng: random.Random, good: list[str], bad: tuple[str, ...] = ("", "x")) -> str:
    return rng.choice(good) if rng.random() < 0.85 else rng.choice(bad)


def _mulatschak_form(rng: random.Random, seats: list[str]) -> list[tuple[str, str]]:
    n = len(seats)
    pairs: list[tuple[str, str]] = [("kind", rng.choice(("played",) * 8 + ("collapsed", "passed",
                                                                              "x", "")))]
    if rng.random() < 0.3:
        pairs.append(("out", _pick(rng, [str(i) for i in range(n)], ("", "9", "x"))))
    pairs += [("declarer", _pick(rng, seats, ("", STRANGER))),
              ("bid", _pick(rng, ["1", "2", "3", "4", "5"], ("", "0", "6", "x"))),
              ("trump", _pick(rng, list(GERMAN_SUITS), ("", "clubs")))]
    pairs += [("home", str(i)) for i in range(n + 1) if rng.random() < 0.15]
    for key in ("knocked", "trump_delayed"):
        if rng.random() < 0.15:
            pairs.append((key, rng.choice(("1", "on", "true", "0", "yes"))))
    for i in range(n):
        if rng.random() < 0.8:
            pairs.append((f"t_{i}", rng.choice(COUNTS)))
        if rng.random() < 0.3:
            pairs.append((f"x_{i}", rng.choice(COUNTS)))
        if rng.random() < 0.2:
            pairs.append((f"xf_{i}", rng.choice(("on_sight", "ace_five", "seven_six", "bridge",
                                                 "plain", "", "x"))))
        if rng.random() < 0.15:
            pairs.append((f"xr_{i}", rng.choice(("1", "on", "0"))))
        if rng.random() < 0.15:
            pairs.append((f"xu_{i}", rng.choice(COUNTS)))
    for key in ("chain_up", "chain_kept"):
        if rng.random() < 0.2:
            pairs.append((key, rng.choice(COUNTS)))
    if rng.random() < 0.2:
        pairs.append(("breaker", _pick(rng, seats, ("", STRANGER))))
    if rng.random() < 0.1:  # a name sent twice: the last one counts
        key, _value = rng.choice(pairs)
        pairs.append((key, rng.choice(("2", "", "hearts", seats[0]))))
    return pairs


def _mura_form(rng: random.Random, seats: list[str]) -> list[tuple[str, str]]:
    if rng.random() < 0.5:
        pairs = [("mode", rng.choice(("", "", "x")))]
        for i in range(len(seats)):
            pairs += [(f"t_{i}", rng.choice(COUNTS)), (f"f_{i}", rng.choice(COUNTS + ("16",)))]
        return pairs
    pairs = [("mode", "cards")]
    tricks = _mura_game(rng, seats, rng.choice(seats))
    upto = rng.randint(0, len(tricks))
    for t, trick in enumerate(tricks[:upto]):
        if t == 0 or rng.random() < 0.3:
            pairs.append((f"l_{t}", str(seats.index(trick["leader"]))
                          if rng.random() < 0.9 else rng.choice(("", "7", "x"))))
        for p, code in trick["cards"].items():
            if rng.random() < 0.95:
                pairs.append((f"c_{t}_{seats.index(p)}",
                              code if rng.random() < 0.95 else rng.choice((
                                  f" {code.upper()} ", "hearts-6", "joker", ""))))
    return pairs


def _matz_form(rng: random.Random, seats: list[str]) -> list[tuple[str, str]]:
    if rng.random() < 0.5:
        return [("loser", _pick(rng, seats, ("", STRANGER)))]
    order = rng.sample(seats, len(seats))
    return [("mode", "order")] + [(f"o_{k}", f" {p}" if rng.random() < 0.1 else p)
                                  for k, p in enumerate(order) if rng.random() < 0.95]


FORMS: dict[str, Callable[[random.Random, list[str]], list[tuple[str, str]]]] = {
    "mulatschak": _mulatschak_form, "mura": _mura_form, "muller_matz": _matz_form}


def forms(seed: int, count: int) -> list[dict[str, Any]]:
    """Saved forms of every game as a page sends them (``game``, ``seats``, ``body``)."""
    rng = random.Random(seed)
    out = []
    for k in range(count):
        game = list(FORMS)[k % len(FORMS)]
        seats = _seats(rng, rng.choice((2, 4, 4, 4, 8)) if game == "mura"
                       else rng.randint(2, 6))
        out.append({"game": game, "seats": seats,
                    "body": urlencode(FORMS[game](rng, seats))})
    return out
