// This game's scorer for the phone (static/scorer.js says what it is for): checking and
// scoring a deal as referee/deal.py does, playing it on a session's state as
// referee/session.py does, stored as this package's apply() stores it, and the board as
// its board() shows it. Every function names its twin in the referee; the data (presets,
// codes, constants) comes from rules-data.js, generated from the referee.
(function (global) {
  "use strict";
  const Scorer = global.SchreiberScorer;
  const S = Scorer.shared;
  const NAME = "mulatschak";
  const violation = S.violation, has = S.has, keys = S.keys, unique = S.unique, zero = S.zero;
  function D() { return Scorer.data(NAME); }

  // --- the rules (referee/rules.py) --------------------------------------------------------

  // mulatschak_rules(session.preset, session.rules): the preset with the frozen parameters.
  function rulesOf(frozen) {
    const presets = D().presets;
    const preset = frozen && frozen.preset;
    if (!has(presets, preset)) S.refuse("preset", "unknown_preset");
    return Object.assign({}, presets[preset], (frozen && frozen.params) || {});
  }
  function largestMultiplier(rules) {
    const implicit = D().implicit_multiplier_cap;
    return rules.multiplier_cap === null || rules.multiplier_cap === undefined
      ? implicit : Math.min(rules.multiplier_cap, implicit);
  }
  function sitsOut(rules, seated) {
    return rules.sit_out_at !== null && rules.sit_out_at !== undefined && seated >= rules.sit_out_at;
  }
  function maxExchangeFor(rules, players) {
    const limit = rules.max_exchange;
    if (typeof limit === "number") return limit;
    if (Array.isArray(limit)) {   // pairs, as the referee keeps them
      const found = limit.find(function (pair) { return pair[0] === players; });
      return found ? found[1] : D().hand_size;
    }
    return has(limit, String(players)) ? limit[String(players)] : D().hand_size;
  }
  function talonSize(rules, players) { return D().pack_sizes[rules.pack] - D().hand_size * players; }

  // --- exchanges (referee/exchange.py) ------------------------------------------------------

  // exchange_from_dict, for what the phone records (its forms are built, not typed).
  function exchangeOf(data, field) {
    if (data === null || typeof data !== "object" || Array.isArray(data)) S.refuse(field, "not_object");
    if (!has(data, "form")) S.refuse(field + ".form", "missing");
    const form = data.form;
    if (typeof form !== "string" || !has(D().forms, form)) S.refuse(field + ".form", "not_choice");
    const allowed = D().forms[form];
    keys(data).sort(S.compare).forEach(function (key) {
      if (key !== "form" && allowed.indexOf(key) < 0) S.refuse(field + "." + key, "not_form_field");
    });
    function count(name, value) {
      if (!S.isInt(value)) S.refuse(field + "." + name, "not_int");
      if (value < 0) S.refuse(field + "." + name, "too_small");
      return value;
    }
    const x = { form: form, cards: 0, face_up: 0, face_up_kept: null, refused: false };
    if (form === "plain") {
      if (!has(data, "cards")) S.refuse(field + ".cards", "missing");
      x.cards = count("cards", data.cards);
      x.face_up = count("face_up", has(data, "face_up") ? data.face_up : 0);
      x.face_up_kept = has(data, "face_up_kept") ? count("face_up_kept", data.face_up_kept) : null;
    } else if (form === "on_sight") {
      const refused = has(data, "refused") ? data.refused : false;
      if (typeof refused !== "boolean") S.refuse(field + ".refused", "not_bool");
      x.refused = refused;
    } else if (form === "bridge") {
      x.face_up = count("face_up", has(data, "face_up") ? data.face_up : 1);
    }
    return x;
  }
  function plain(cards) { return { form: "plain", cards: cards, face_up: 0, face_up_kept: null, refused: false }; }
  function kept(x) { return x.face_up_kept === null ? x.face_up : x.face_up_kept; }
  function drawn(x) {
    if (x.form === "plain") return x.cards + x.face_up;
    if (x.form === "on_sight") return x.refused ? 2 : 1;
    if (x.form === "bridge") return D().form_cards.bridge + x.face_up;
    return D().form_cards[x.form];
  }
  function taken(x) {
    if (x.form === "plain") return x.cards + kept(x);
    if (x.form === "on_sight") return 1;
    return drawn(x);
  }
  function isExchange(x) { return drawn(x) > 0; }
  function hasChain(x) { return x.form === "plain" && (x.face_up > 0 || (x.face_up_kept || 0) > 0); }

  // recorded_entries: both maps, seated players in seat order (exchanged first), then the
  // names that are not seated, as recorded.
  function recordedEntries(players, exchanged, exchanges) {
    const entries = [];
    keys(exchanged).forEach(function (p) { entries.push({ player: p, exchange: plain(exchanged[p]), source: "exchanged" }); });
    keys(exchanges).forEach(function (p) { entries.push({ player: p, exchange: exchanges[p], source: "exchanges" }); });
    const seat = {};
    players.forEach(function (p, i) { seat[p] = i; });
    function key(e) { return has(seat, e.player) ? [seat[e.player], 0] : [players.length, 1]; }
    return entries.map(function (e, i) { return [key(e), i, e]; })
      .sort(function (a, b) { return S.compareTuples(a[0], b[0]) || a[1] - b[1]; })
      .map(function (t) { return t[2]; });
  }

  // talon_order: the entries in the order the talon is dealt, with running sums.
  function talonOrder(players, declarer, entries, delayed) {
    const n = players.length;
    const start = players.indexOf(declarer) >= 0 ? players.indexOf(declarer) : 0;
    function clockwise(e) {
      const source = e.source === "exchanged" ? 0 : 1;
      if (players.indexOf(e.player) >= 0) return [(players.indexOf(e.player) - start + n) % n, "", source];
      return [n, e.player, source];
    }
    function sorted(list) {
      return list.map(function (e, i) { return [clockwise(e), i, e]; })
        .sort(function (a, b) { return S.compareTuples(a[0], b[0]) || a[1] - b[1]; })
        .map(function (t) { return t[2]; });
    }
    function first(e) { return delayed && e.player === declarer && e.exchange.form === "bridge"; }
    const ordered = sorted(entries.filter(first))
      .concat(sorted(entries.filter(function (e) { return !first(e) && e.exchange.form !== "bridge"; })))
      .concat(sorted(entries.filter(function (e) { return !first(e) && e.exchange.form === "bridge"; })));
    const out = new Map();
    let running = 0;
    ordered.forEach(function (e) {
      out.set(e, { before: running, after: running + drawn(e.exchange) });
      running += drawn(e.exchange);
    });
    return out;
  }

  // --- the deal (referee/deal.py) ----------------------------------------------------------

  // deal_from_dict, for what the phone records: a deal with every field the referee reads.
  function dealOf(data) {
    if (data === null || typeof data !== "object") S.refuse("", "not_object");
    const kind = String(data.kind);
    if (["played", "collapsed", "passed"].indexOf(kind) < 0) S.refuse("kind", "not_choice");
    const knocked = has(data, "knocked") && data.knocked !== undefined ? data.knocked : false;
    if (typeof knocked !== "boolean") S.refuse("knocked", "not_bool");
    if (kind !== "played") return { kind: kind, knocked: knocked };
    function name(value, field) {
      if (typeof value !== "string" || !value) S.refuse(field, "not_name");
      return value;
    }
    function whole(value, field) {
      if (!S.isInt(value)) S.refuse(field, "not_int");
      return value;
    }
    function counts(value, field) {
      if (value === null || typeof value !== "object" || Array.isArray(value)) S.refuse(field, "not_object");
      const out = {};
      keys(value).forEach(function (p) { out[name(p, field)] = whole(value[p], field + "." + p); });
      return out;
    }
    const raw = data.exchanges;
    if (raw !== null && raw !== undefined && (typeof raw !== "object" || Array.isArray(raw))) S.refuse("exchanges", "not_object");
    let exchanges = null;
    if (raw !== null && raw !== undefined) {
      exchanges = {};
      keys(raw).forEach(function (p) { exchanges[p] = exchangeOf(raw[p], "deal.exchanges." + p); });
    }
    const delayed = has(data, "trump_delayed") && data.trump_delayed !== undefined ? data.trump_delayed : false;
    if (typeof delayed !== "boolean") S.refuse("trump_delayed", "not_bool");
    // in the order deal_from_dict reads them: its first problem is the one named
    const declarer = name(data.declarer, "declarer");
    const bid = whole(data.bid, "bid");
    if (typeof data.trump !== "string") S.refuse("trump", "not_string");
    const tricks = counts(data.tricks || {}, "tricks");
    const home = data.stayed_home || [];
    if (!Array.isArray(home)) S.refuse("stayed_home", "not_list");
    const stayedHome = home.map(function (p, i) { return name(p, "stayed_home." + i); });
    const exchanged = data.exchanged === null || data.exchanged === undefined ? null : counts(data.exchanged, "exchanged");
    const breaker = data.muli_breaker === null || data.muli_breaker === undefined ? null : name(data.muli_breaker, "muli_breaker");
    return { kind: "played", declarer: declarer, bid: bid, trump: data.trump, tricks: tricks,
             stayed_home: stayedHome, knocked: knocked, exchanged: exchanged, muli_breaker: breaker,
             exchanges: exchanges, trump_delayed: delayed };
  }

  // sitting_out: the dealer from sit_out_at seated players on.
  function sittingOut(rules, players, dealer) {
    if (players.indexOf(dealer) < 0 || !sitsOut(rules, players.length)) return null;
    return dealer;
  }
  function nextDealer(players, dealer, kind) {
    if (kind === "collapsed") return dealer;
    return players[(players.indexOf(dealer) + 1) % players.length];
  }

  // multiplier_factors / multiplier_of
  function multiplierFactors(rules, hearts, collapses, knocked, knocksBefore) {
    const out = [];
    let k;
    if (hearts && rules.hearts_double) out.push("hearts");
    if (rules.collapse_doubles) for (k = 0; k < collapses; k += 1) out.push("collapse");
    if (knocked && rules.knock_doubles) out.push("knock");
    if (rules.knock_doubles && rules.knock_survives_collapse) for (k = 0; k < knocksBefore; k += 1) out.push("knock");
    return out;
  }
  function bitLength(n) { let b = 0; while (n > 0) { b += 1; n = Math.floor(n / 2); } return b; }
  function multiplierOf(rules, count) {
    const cap = largestMultiplier(rules);
    if (count >= bitLength(cap)) return cap;
    return Math.min(Math.pow(2, count), cap);
  }
  function collapsesAfter(rules, kind, before) {
    if (kind === "played") return 0;
    if (kind === "collapsed" || rules.all_pass === "redeal_double") return before + 1;
    return before;
  }
  function knocksAfter(rules, kind, before, knocked) {
    if (kind === "played" || !(rules.knock_doubles && rules.knock_survives_collapse)) return 0;
    const feeds = kind === "collapsed" || rules.all_pass === "redeal_double";
    return before + (knocked && feeds ? 1 : 0);
  }

  function atOrBelow(score, threshold) { return threshold !== null && threshold !== undefined && score <= threshold; }

  // Table.of: scores of the players missing start at start_score.
  function table(rules, players, dealer, scores, collapses, previousHome, knocks) {
    const before = {};
    players.forEach(function (p) { before[p] = rules.start_score; });
    Object.assign(before, scores || {});
    const out = sittingOut(rules, players, dealer);
    return { rules: rules, players: players, dealer: dealer, scores_before: before,
             collapses_before: collapses || 0, previous_stayed_home: previousHome || [],
             knocks_before: knocks || 0, sitting_out: out,
             active: players.filter(function (p) { return p !== out; }) };
  }

  function rank(code) {
    const i = D().code_order.indexOf(code);
    return i < 0 ? D().code_order.length : i;
  }
  function byRank(list) {
    return list.map(function (v, i) { return [rank(v.code), i, v]; })
      .sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; })
      .map(function (t) { return t[2]; });
  }

  // check_deal: every violation, in the order of docs/rules.md, "Deal codes".
  function checkDeal(t, deal) {
    const rules = t.rules, players = t.players, out = t.sitting_out, active = t.active;
    const MULI = D().muli, TRICKS = D().tricks_per_deal;
    const v = [];
    function add(code, player, params) { v.push(violation(code, player, params)); }
    function seated(p) { return players.indexOf(p) >= 0; }

    if (!(rules.players_min <= active.length) || players.length > rules.players_max) {
      const count = players.length > rules.players_max ? players.length : active.length;
      add("players_count", null, { count: count, min: rules.players_min, max: rules.players_max });
    }
    let named = keys(t.scores_before).concat(t.previous_stayed_home);
    if (deal.kind === "played") {
      [deal.declarer, deal.muli_breaker].forEach(function (p) { if (p !== null) named.push(p); });
      named = named.concat(deal.stayed_home, keys(deal.tricks), keys(deal.exchanged), keys(deal.exchanges));
    }
    unique(named).forEach(function (name) { if (!seated(name)) add("unknown_player", name); });
    if (!seated(t.dealer)) add("dealer_not_seated", t.dealer);
    if (deal.knocked && !rules.knock_doubles) add("knock_not_allowed");
    if (t.knocks_before && !(rules.knock_doubles && rules.knock_survives_collapse)) {
      add("knock_not_allowed", null, { knocks_before: t.knocks_before });
    }
    if (deal.kind !== "played") return byRank(v);

    const declarer = deal.declarer, bid = deal.bid, trump = deal.trump, tricks = deal.tricks;
    if (out !== null) {
      [["declarer", declarer === out], ["stayed_home", deal.stayed_home.indexOf(out) >= 0],
       ["tricks", has(tricks, out)], ["exchanged", has(deal.exchanged, out)],
       ["exchanges", has(deal.exchanges, out)], ["muli_breaker", deal.muli_breaker === out]]
        .forEach(function (pair) { if (pair[1]) add("player_sitting_out", out, { field: pair[0] }); });
    }
    const listedHome = players.filter(function (p) { return deal.stayed_home.indexOf(p) >= 0 && p !== out; });
    const home = listedHome.filter(function (p) { return p !== declarer; });
    const playing = active.filter(function (p) { return home.indexOf(p) < 0; });
    function score(p) { return has(t.scores_before, p) ? t.scores_before[p] : null; }
    function scoreOr0(p) { return has(t.scores_before, p) ? t.scores_before[p] : 0; }
    const hearts = trump === D().hearts;
    const isMuli = bid === MULI;
    const delayed = deal.trump_delayed && rules.delayed_trump;

    const lowest = hearts && !delayed ? rules.min_bid_hearts : rules.min_bid;
    if (!(lowest <= bid && bid <= MULI)) add("bid_out_of_range", declarer, { bid: bid, min: lowest, max: MULI });
    if (seated(declarer) && atOrBelow(scoreOr0(declarer), rules.no_bid_at_or_below)) {
      add("bid_forbidden_low_score", declarer, { score: score(declarer), threshold: rules.no_bid_at_or_below });
    }
    if (D().suits.indexOf(trump) < 0) add("trump_invalid", null, { trump: trump });
    if (listedHome.indexOf(declarer) >= 0) add("declarer_stayed_home", declarer);
    if (hearts && rules.hearts_all_play) home.forEach(function (p) { add("stay_home_forbidden_hearts", p); });
    if (isMuli && rules.muli_all_play) home.forEach(function (p) { add("stay_home_forbidden_muli", p); });
    home.forEach(function (p) {
      if (atOrBelow(scoreOr0(p), rules.must_play_at_or_below)) {
        add("stay_home_forbidden_low_score", p, { score: score(p), threshold: rules.must_play_at_or_below });
      }
    });
    if (rules.last_player_must_play && seated(declarer) &&
        !playing.some(function (p) { return p !== declarer; })) {
      add("no_opponent", declarer);
    }
    const missing = playing.filter(function (p) { return !has(tricks, p); });
    missing.forEach(function (p) { if (listedHome.indexOf(p) < 0) add("tricks_missing", p); });
    home.forEach(function (p) { if (has(tricks, p)) add("tricks_for_absent", p, { tricks: tricks[p] }); });
    seatOrder(players, tricks).forEach(function (p) {
      const n = tricks[p];
      if (!(n >= 0 && n <= TRICKS)) add("tricks_out_of_range", p, { tricks: n });
    });
    let total = 0;
    playing.forEach(function (p) { total += has(tricks, p) ? tricks[p] : 0; });
    if (total > TRICKS || (!missing.length && total !== TRICKS)) add("tricks_sum", null, { total: total, expected: TRICKS });

    exchangeViolations(t, deal, home).forEach(function (x) { v.push(x); });

    if (rules.no_stay_home_twice) {
      home.forEach(function (p) { if (t.previous_stayed_home.indexOf(p) >= 0) add("stay_home_twice", p); });
    }
    if (isMuli && rules.muli_fail_mode === "breaker" && (has(tricks, declarer) ? tricks[declarer] : 0) < MULI) {
      const breaker = deal.muli_breaker;
      if (breaker === null || breaker === declarer || playing.indexOf(breaker) < 0 ||
          (has(tricks, breaker) ? tricks[breaker] : 0) < 1) {
        add("muli_breaker_required", breaker);
      }
    }
    return byRank(v);
  }

  // _seat_order: the names of a count map, seated ones in seat order, the others after.
  function seatOrder(players, counts) {
    const seated = players.filter(function (p) { return has(counts, p); });
    return seated.concat(keys(counts).filter(function (p) { return seated.indexOf(p) < 0; }));
  }

  // _form_allowed: null when allowed here, else the form to name.
  function formAllowed(rules, entry, declarer, delayed) {
    const x = entry.exchange, p = entry.player;
    if (x.form === "plain") {
      const chainOk = p === declarer && rules.declarer_on_sight_chain;
      return chainOk || !hasChain(x) ? null : "on_sight_chain";
    }
    const allowed = {
      on_sight: rules.exchange_on_sight,
      ace_five: rules.exchange_ace_five,
      seven_six: rules.exchange_seven_six,
      bridge: rules.exchange_bridge || (delayed && p === declarer),
    }[x.form];
    return allowed ? null : x.form;
  }

  // _exchange_violations
  function exchangeViolations(t, deal, home) {
    const rules = t.rules, players = t.players, declarer = deal.declarer;
    const delayed = deal.trump_delayed && rules.delayed_trump;
    const entries = recordedEntries(players, deal.exchanged, deal.exchanges);
    const exchanges = entries.filter(function (e) { return isExchange(e.exchange); });
    function score(p) { return has(t.scores_before, p) ? t.scores_before[p] : null; }
    function scoreOr0(p) { return has(t.scores_before, p) ? t.scores_before[p] : 0; }
    const v = [];

    if (deal.bid === D().muli && rules.muli_no_exchange) {
      exchanges.forEach(function (e) { v.push(violation("exchange_forbidden_muli", e.player, { cards: taken(e.exchange) })); });
    }
    exchanges.forEach(function (e) {
      if (atOrBelow(scoreOr0(e.player), rules.no_exchange_at_or_below)) {
        v.push(violation("exchange_forbidden_low_score", e.player,
                         { cards: taken(e.exchange), score: score(e.player), threshold: rules.no_exchange_at_or_below }));
      }
    });
    const limit = maxExchangeFor(rules, t.active.length);
    const own = entries.filter(function (e) { return e.player === declarer; }).map(function (e) { return taken(e.exchange); });
    const declarerTook = own.length ? own.reduce(function (a, b) { return a + b; }, 0) : null;
    entries.forEach(function (e) {
      if (e.exchange.form !== "plain") return;
      let cap = limit;
      if (rules.exchange_capped_by_declarer && e.player !== declarer && declarerTook !== null) cap = Math.min(cap, declarerTook);
      if (e.exchange.cards > cap) v.push(violation("exchange_too_many", e.player, { cards: e.exchange.cards, max: cap }));
    });
    const talon = talonSize(rules, t.active.length);
    let sum = 0;
    entries.forEach(function (e) { sum += drawn(e.exchange); });
    if (sum > talon) v.push(violation("exchange_exceeds_talon", null, { cards: sum, talon: talon }));
    const both = keys(deal.exchanged).filter(function (p) { return has(deal.exchanges, p); });
    unique(entries.filter(function (e) { return both.indexOf(e.player) >= 0; }).map(function (e) { return e.player; }))
      .forEach(function (p) { v.push(violation("exchange_recorded_twice", p)); });
    exchanges.forEach(function (e) {
      if (home.indexOf(e.player) >= 0) v.push(violation("exchange_by_absent", e.player, { form: e.exchange.form }));
    });

    const notAllowed = new Set();
    const names = unique(entries.map(function (e) { return e.player; }));
    const delayedOff = deal.trump_delayed && !rules.delayed_trump;
    if (delayedOff && declarer !== null && names.indexOf(declarer) < 0) names.push(declarer);
    const seatKey = function (p) {
      const i = players.indexOf(p);
      return [i >= 0 ? i : players.length, names.indexOf(p)];
    };
    names.slice().sort(function (a, b) { return S.compareTuples(seatKey(a), seatKey(b)); }).forEach(function (p) {
      if (delayedOff && p === declarer) v.push(violation("exchange_form_not_allowed", p, { form: "delayed_trump" }));
      entries.forEach(function (e) {
        if (e.player !== p) return;
        const form = formAllowed(rules, e, declarer, delayed);
        if (form !== null) {
          notAllowed.add(e);
          v.push(violation("exchange_form_not_allowed", p, { form: form }));
        }
      });
    });
    const checked = entries.filter(function (e) { return !notAllowed.has(e); });
    checked.forEach(function (e) {
      if (e.exchange.form === "seven_six" && deal.trump !== D().bells) {
        v.push(violation("seven_six_not_bells", e.player, { trump: deal.trump }));
      }
    });
    const dealt = talonOrder(players, declarer, entries, delayed);
    checked.forEach(function (e) {
      const x = e.exchange;
      if (x.form === "bridge") {
        const least = delayed && e.player === declarer ? 2 : 1;
        if (x.face_up < least && !(dealt.get(e).after >= talon)) {
          v.push(violation("face_up_chain_invalid", e.player, { form: "bridge", reason: "counts" }));
        }
      } else if (hasChain(x) && !(kept(x) <= x.face_up && x.face_up <= kept(x) + 1 && (x.cards > 0 || x.face_up === 0))) {
        v.push(violation("face_up_chain_invalid", e.player, { form: "on_sight_chain", reason: "counts" }));
      }
    });
    if (delayed && declarer !== null &&
        !entries.some(function (e) { return e.player === declarer && e.exchange.form === "bridge"; })) {
      v.push(violation("delayed_trump_without_bridge", declarer));
    }
    return v;
  }

  // _base_changes: each player's change before the multiplier, its reason, made or not.
  function baseChanges(rules, t, deal) {
    const MULI = D().muli;
    const declarer = deal.declarer, bid = deal.bid, tricks = deal.tricks;
    const base = {}, why = {};
    const made = (has(tricks, declarer) ? tricks[declarer] : 0) >= bid;
    t.players.forEach(function (p) {
      const n = has(tricks, p) ? tricks[p] : 0;
      if (p === t.sitting_out) { base[p] = 0; why[p] = "sitting_out"; }
      else if (bid === MULI) {
        const payout = made ? rules.muli_win : rules.muli_fail;
        if (p === declarer) { base[p] = payout.declarer; why[p] = made ? "muli_made" : "muli_failed"; }
        else if (made) { base[p] = payout.others; why[p] = "muli_made_other"; }
        else if (rules.muli_fail_mode === "all" ||
                 (rules.muli_fail_mode === "breaker" && p === deal.muli_breaker) ||
                 (rules.muli_fail_mode === "trick_takers" && n >= 1)) {
          base[p] = payout.others; why[p] = "muli_broken";
        } else { base[p] = 0; why[p] = "muli_failed_other"; }
      } else if (deal.stayed_home.indexOf(p) >= 0) { base[p] = rules.stay_home_penalty; why[p] = "stayed_home"; }
      else if (p === declarer) {
        if (made) { base[p] = zero(-rules.trick_value * n); why[p] = "declarer_made"; }
        else {
          const counted = rules.failed_declarer_counts_tricks ? zero(-rules.trick_value * n) : 0;
          base[p] = rules.declarer_fail_penalty + counted; why[p] = "declarer_fell";
        }
      } else if (n === 0) { base[p] = rules.no_trick_penalty; why[p] = "no_trick"; }
      else { base[p] = zero(-rules.trick_value * n); why[p] = "tricks"; }
    });
    return { base: base, reasons: why, made: made };
  }

  // _apply_floor: a score never goes below the floor because of a deal.
  function applyFloor(floor, before, change) {
    if (floor === null || floor === undefined || change >= 0 || before + change >= floor) return change;
    return before > floor ? Math.min(before, floor) - before : 0;
  }
  function gameWinners(scores, players) {
    const best = Math.min.apply(null, players.map(function (p) { return scores[p]; }));
    return players.filter(function (p) { return scores[p] === best; });
  }
  function mapOf(players, f) { const out = {}; players.forEach(function (p) { out[p] = f(p); }); return out; }

  // score_deal: the deal checked, and scored when legal.
  function scoreDeal(t, deal) {
    const rules = t.rules, players = t.players;
    const violations = checkDeal(t, deal);
    const before = mapOf(players, function (p) { return t.scores_before[p]; });
    const following = players.indexOf(t.dealer) >= 0 ? nextDealer(players, t.dealer, deal.kind) : null;
    const pending = collapsesAfter(rules, deal.kind, t.collapses_before);
    const knocks = knocksAfter(rules, deal.kind, t.knocks_before, deal.knocked);
    const out = t.sitting_out;
    const nextOut = following === null ? null : sittingOut(rules, players, following);
    if (violations.length) return { violations: violations };
    const common = { collapses_after: pending, next_dealer: following, knocks_after: knocks,
                     sitting_out: out, next_sitting_out: nextOut };
    if (deal.kind !== "played") {
      const nothing = mapOf(players, function () { return 0; });
      return Object.assign({ violations: [], multiplier: 1, factors: [], deltas: nothing, base: nothing,
                             scores_after: before, declarer_made: null, game_over: false, winners: [],
                             reasons: mapOf(players, function (p) { return p === out ? "sitting_out" : "none"; }) },
                           common);
    }
    const factors = multiplierFactors(rules, deal.trump === D().hearts, t.collapses_before, deal.knocked,
                                      t.knocks_before);
    const m = multiplierOf(rules, factors.length);
    const changes = baseChanges(rules, t, deal);
    const deltas = mapOf(players, function (p) { return zero(applyFloor(rules.score_floor, before[p], zero(changes.base[p] * m))); });
    const after = mapOf(players, function (p) { return before[p] + deltas[p]; });
    const beyond = players.filter(function (p) { return Math.abs(after[p]) > D().max_score; })
      .map(function (p) { return violation("score_out_of_range", p, { limit: D().max_score }); });
    if (beyond.length) return { violations: beyond };
    const over = players.some(function (p) { return after[p] <= rules.target_score; });
    return Object.assign({ violations: [], multiplier: m, factors: factors, deltas: deltas, base: changes.base,
                           scores_after: after, reasons: changes.reasons, declarer_made: changes.made,
                           game_over: over, winners: over ? gameWinners(after, players) : [] }, common);
  }

  // --- the session (referee/session.py, stored as this package's apply() stores it) -----------

  // start(): state_to_json(session_start(...))
  function start(frozen, players, firstDealer) {
    const rules = rulesOf(frozen);
    return { game_number: 1, scores: mapOf(players, function () { return rules.start_score; }),
             dealer: firstDealer, collapses: 0, previous_stayed_home: [], game_over: false,
             winners: [], games: [], games_total: 0, deals: 0, knocks: 0 };
  }

  // table_for: the table the next deal is played at, a new game started if one ended.
  function tableFor(rules, players, state) {
    const fresh = state.game_over;
    return table(rules, players, state.dealer,
                 fresh ? mapOf(players, function () { return rules.start_score; }) : state.scores,
                 fresh ? 0 : state.collapses, fresh ? [] : state.previous_stayed_home.slice(),
                 fresh ? 0 : (state.knocks || 0));
  }

  // apply(): session.apply, its outcome as outcome_to_json, its state as state_to_json.
  function apply(frozen, players, state, data) {
    const rules = rulesOf(frozen);
    const deal = dealOf(data);
    const number = state.deals + 1;
    const t = tableFor(rules, players, state);
    const r = scoreDeal(t, deal);
    if (r.violations.length) throw new Scorer.Refused(r.violations);
    const gameNumber = state.game_over ? state.game_number + 1 : state.game_number;
    const result = {
      dealer: t.dealer, game_number: gameNumber, scores_before: t.scores_before,
      collapses_before: t.collapses_before, multiplier: r.multiplier, factors: r.factors,
      deltas: r.deltas, base: r.base, reasons: r.reasons, scores_after: r.scores_after,
      declarer_made: r.declarer_made, game_over: r.game_over, winners: r.winners,
      knocks_before: t.knocks_before, sitting_out: r.sitting_out,
    };
    let games = (state.games || []).slice();
    let total = state.games_total || 0;
    if (r.game_over) {
      games.push({ number: gameNumber, final_scores: r.scores_after, winners: r.winners });
      total += 1;
    }
    games = games.slice(Math.max(0, games.length - D().recent_games));
    const home = deal.kind === "played" ? unique(deal.stayed_home) : t.previous_stayed_home;
    const next = {
      game_number: gameNumber, scores: r.scores_after, dealer: r.next_dealer,
      collapses: r.collapses_after, previous_stayed_home: home.slice().sort(S.compare),
      game_over: r.game_over, winners: r.winners, games: games, games_total: total,
      deals: number, knocks: r.knocks_after,
    };
    return { result: S.copy(result), state: S.copy(next) };
  }

  // board(): the scoreboard of the state (pending_multiplier, next_sitting_out).
  function board(frozen, players, state) {
    const rules = rulesOf(frozen);
    const collapses = state.game_over ? 0 : state.collapses;
    const knocks = state.game_over ? 0 : (state.knocks || 0);
    const factors = multiplierFactors(rules, false, collapses, false, knocks);
    const out = sittingOut(rules, players, state.dealer);
    return S.copy({
      game_number: state.game_number,
      scores: mapOf(players, function (p) { return state.scores[p]; }),
      next_dealer: state.dealer,
      next_sitting_out: out,
      pending_multiplier: multiplierOf(rules, factors.length),
      pending_factors: factors,
      game_over: state.game_over,
      winners: state.winners.slice(),
      games: (state.games || []).map(function (g) {
        return { number: g.number, final_scores: mapOf(players, function (p) { return g.final_scores[p]; }),
                 winners: g.winners.slice() };
      }),
      deals: state.deals,
    });
  }

  Scorer.register(NAME, { start: start, apply: apply, board: board, check: function (frozen, players, state, data) {
    const rules = rulesOf(frozen);
    return checkDeal(tableFor(rules, players, state), dealOf(data));
  } });
})(typeof self !== "undefined" ? self : globalThis);
