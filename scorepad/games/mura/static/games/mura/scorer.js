// This game's scorer for the phone (static/scorer.js says what it is for): checking a deal
// as referee/mura.py does (counts, or card by card), playing it on a session's state as
// referee/tally.py does, stored as this package's apply() stores it (play.py), and the
// board as its board() shows it (scoreboard.py). The data comes from rules-data.js,
// generated from the referee.
(function (global) {
  "use strict";
  const Scorer = global.SchreiberScorer;
  const S = Scorer.shared;
  const NAME = "mura";
  const violation = S.violation, has = S.has, keys = S.keys;
  function D() { return Scorer.data(NAME); }

  // The rules a deal is checked and scored with: the session's frozen rules, the
  // referee's default for a parameter they lack (play.session_rules); the board's count of
  // zeros a mura is theirs too.
  function rules(frozen) { return Object.assign({}, D().rules, (frozen && frozen.params) || {}); }
  // play.seat_rules: the referee's rules for a table where only the seats are known.
  function seatRules(seats) {
    return Object.assign({}, D().rules, [2, 4, 8].indexOf(seats) >= 0 ? { players: seats } : {});
  }
  // MuraRules.tricks_per_deal: all cards are dealt, one card each per trick.
  function tricksPerDeal(r) { return Math.floor(D().pack_cards / r.players); }
  function zerosPerMura(frozen) { return rules(frozen).zeros_per_mura; }

  // _names: the seated names, or the referee's RuleError.
  function names(players) {
    if (!Array.isArray(players)) S.refuse("players", "not_list");
    players.forEach(function (p, i) { if (typeof p !== "string" || !p) S.refuse("players." + i, "not_name"); });
    if (new Set(players).size !== players.length) S.refuse("players", "seated_twice");
    return players.slice();
  }
  function counts(field, value) {
    if (value === null || typeof value !== "object" || Array.isArray(value)) S.refuse(field, "not_object");
    keys(value).forEach(function (p) { if (!S.isInt(value[p])) S.refuse(field + "." + p, "not_int"); });
    return value;
  }

  // player_result
  function playerResult(tricks, figures, r) {
    const mura = tricks >= 1 && figures < r.figures_needed ? tricks : 0;
    return { tricks: tricks, figures: figures, mura: mura, zero: tricks === 0 };
  }

  // _count_violations
  function countViolations(seats, tricks, figures, r) {
    const v = [];
    if (seats.length !== r.players) v.push(violation("players_count", null, { expected: r.players, actual: seats.length }));
    [["tricks", tricks], ["figures", figures]].forEach(function (pair) {
      keys(pair[1]).forEach(function (name) {
        if (seats.indexOf(name) < 0) v.push(violation("unknown_player", name, { field: pair[0] }));
      });
    });
    const maxTricks = tricksPerDeal(r), maxFigures = D().max_figures_total;
    const results = {};
    seats.forEach(function (name) {
      const t = has(tricks, name) ? tricks[name] : null, f = has(figures, name) ? figures[name] : null;
      if (t === null) v.push(violation("tricks_missing", name));
      else if (!(t >= 0 && t <= maxTricks)) v.push(violation("tricks_out_of_range", name, { value: t, min: 0, max: maxTricks }));
      if (f === null) v.push(violation("figures_missing", name));
      else if (!(f >= 0 && f <= maxFigures)) v.push(violation("figures_out_of_range", name, { value: f, min: 0, max: maxFigures }));
      if (t === null || f === null) return;
      results[name] = playerResult(t, f, r);
      if (!(t >= 0 && t <= maxTricks && f >= 0 && f <= maxFigures)) return;
      if (t === 0 && f > 0) v.push(violation("figures_without_tricks", name, { figures: f }));
      const most = r.max_figures_per_trick * t;
      const fewest = Math.max(0, r.players * t - D().blank_cards);
      if (t > 0 && f > most) v.push(violation("figures_too_many", name, { figures: f, tricks: t, max: most }));
      if (f < fewest) v.push(violation("figures_too_few", name, { figures: f, tricks: t, min: fewest }));
    });
    if (seats.every(function (n) { return has(tricks, n); })) {
      let total = 0;
      seats.forEach(function (n) { total += tricks[n]; });
      if (total !== maxTricks) v.push(violation("tricks_sum", null, { total: total, expected: maxTricks }));
    }
    if (seats.every(function (n) { return has(figures, n); })) {
      let total = 0;
      seats.forEach(function (n) { total += figures[n]; });
      const low = D().min_figures_total;
      if (total % 2 || !(low <= total && total <= maxFigures)) {
        v.push(violation("figures_sum", null, { total: total, min: low, max: maxFigures }));
      }
    }
    return { violations: v, results: results };
  }

  function dealerViolations(seats, dealer) {
    if (dealer === null || dealer === undefined) return [];
    if (typeof dealer !== "string" || !dealer) S.refuse("dealer", "not_name");
    return seats.indexOf(dealer) < 0 ? [violation("dealer_not_seated", dealer)] : [];
  }

  // check_counts
  function checkCounts(players, tricks, figures, r) {
    const seats = names(players);
    const v = dealerViolations(seats, null);
    const counted = countViolations(seats, counts("tricks", tricks), counts("figures", figures), r);
    return { violations: v.concat(counted.violations), results: counted.results };
  }

  // --- card by card --------------------------------------------------------------------

  // parse_trick_cards
  function parseTrickCards(data) {
    if (!Array.isArray(data)) S.refuse("trick_cards", "not_list");
    return data.map(function (trick, index) {
      const where = "trick_cards." + index;
      if (trick === null || typeof trick !== "object" || Array.isArray(trick)) S.refuse(where, "not_object");
      const leader = trick.leader, cards = trick.cards;
      if (typeof leader !== "string") S.refuse(where + ".leader", "not_name");
      if (cards === null || typeof cards !== "object" || Array.isArray(cards)) S.refuse(where + ".cards", "not_object");
      keys(cards).forEach(function (name) {
        if (typeof cards[name] !== "string") S.refuse(where + ".cards." + name, "bad_card");
      });
      return { leader: leader, cards: cards };
    });
  }

  // Pack.parse: a card of the pack ({suit, rank, code}), "syntax" for no card code at all,
  // "not_in_pack" for a card of another pack. Python's strip() and lower().
  const WHITE = "[\\t\\n\\v\\f\\r \\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
  const SPACE = new RegExp("^" + WHITE + "+|" + WHITE + "+$", "g");
  function parseCard(text) {
    const pack = D().pack;
    const clean = String(text).replace(SPACE, "").toLowerCase();
    const at = clean.indexOf("-");
    if (at < 0) return "syntax";
    const suit = clean.slice(0, at);
    let rank = clean.slice(at + 1);
    if (D().all_suits.indexOf(suit) < 0 || D().all_ranks.indexOf(rank) < 0) return "syntax";
    if (has(pack.aliases, rank)) rank = pack.aliases[rank];
    const code = suit + "-" + rank;
    if (pack.suits.indexOf(suit) < 0 || pack.ranks.indexOf(rank) < 0 || pack.excluded.indexOf(code) >= 0) return "not_in_pack";
    return { suit: suit, rank: rank, code: code };
  }
  function rankIndex(rank) { return D().pack.ranks.indexOf(rank); }

  function cardFigures(card, wins) {
    if (D().figure_ranks.indexOf(card.rank) < 0) return 0;
    return wins && card.rank === "ace" ? D().winning_ace_figures : 1;
  }
  // trick_winner: the highest card of the suit led; the earlier of two equal cards.
  function trickWinner(plays) {
    const led = plays[0][1].suit;
    let best = plays[0];
    plays.slice(1).forEach(function (play) {
      if (play[1].suit === led && rankIndex(play[1].rank) < rankIndex(best[1].rank)) best = play;
    });
    return best;
  }
  function firstLeader(players, dealer) { return players[(players.indexOf(dealer) + 1) % players.length]; }
  // _play_order: from the leader on, those not seated last.
  function playOrder(seats, leader, cards) {
    let ordered;
    if (seats.indexOf(leader) >= 0) {
      const start = seats.indexOf(leader);
      ordered = seats.slice(start).concat(seats.slice(0, start)).filter(function (n) { return has(cards, n); });
    } else {
      ordered = seats.filter(function (n) { return has(cards, n); });
    }
    return ordered.concat(keys(cards).filter(function (n) { return seats.indexOf(n) < 0; }));
  }

  // check_cards
  function checkCards(players, trickCards, dealer, r) {
    const seats = names(players);
    const v = dealerViolations(seats, dealer);
    const opening = dealer !== null && dealer !== undefined && seats.indexOf(dealer) >= 0 ? firstLeader(seats, dealer) : null;
    const expected = tricksPerDeal(r);
    if (trickCards.length !== expected) v.push(violation("wrong_number_of_plays", null, { tricks: trickCards.length, expected: expected }));
    const outcomes = [];
    const seen = new Map();
    let previous = null;
    trickCards.forEach(function (trick, index) {
      const number = index + 1;
      const leader = trick.leader;
      if (seats.indexOf(leader) < 0) v.push(violation("unknown_player", leader, { trick: number, field: "leader" }));
      keys(trick.cards).forEach(function (name) {
        if (seats.indexOf(name) < 0) v.push(violation("unknown_player", name, { trick: number, field: "cards" }));
      });
      if (keys(trick.cards).length !== r.players) {
        v.push(violation("wrong_number_of_plays", null, { trick: number, cards: keys(trick.cards).length, expected: r.players }));
      }
      if (number > 1 && previous !== null && leader !== previous) {
        v.push(violation("wrong_leader", leader, { trick: number, expected: previous }));
      }
      if (number === 1 && opening !== null && leader !== opening) {
        v.push(violation("wrong_leader", leader, { trick: 1, expected: opening }));
      }
      const plays = [];
      playOrder(seats, leader, trick.cards).forEach(function (name) {
        const code = trick.cards[name];
        const card = parseCard(code);
        if (card === "syntax") S.refuse("trick_cards." + index + ".cards." + name, "bad_card");
        if (card === "not_in_pack") {
          v.push(violation("card_not_in_pack", name, { trick: number, card: code, pack: D().pack.name }));
          return;
        }
        if (seen.has(card.code)) {
          v.push(violation("card_played_twice", name, { trick: number, card: card.code, first_trick: seen.get(card.code) }));
        } else {
          seen.set(card.code, number);
        }
        if (seats.indexOf(name) >= 0) plays.push([name, card]);
      });
      let winner = null, taken = 0;
      if (plays.length && plays[0][0] === leader) {
        winner = trickWinner(plays)[0];
        plays.forEach(function (play) { taken += cardFigures(play[1], play[0] === winner); });
      }
      outcomes.push({ number: number, leader: leader, plays: plays, winner: winner, figures: taken });
      previous = winner;
    });
    revokes(outcomes).forEach(function (x) { v.push(x); });
    const tricks = {}, figures = {};
    seats.forEach(function (p) { tricks[p] = 0; figures[p] = 0; });
    outcomes.forEach(function (o) {
      if (o.winner !== null) { tricks[o.winner] += 1; figures[o.winner] += o.figures; }
    });
    const counted = countViolations(seats, tricks, figures, r);
    return { violations: v.concat(counted.violations), results: counted.results, tricks: outcomes };
  }

  // _revokes: did not follow the suit led, yet plays a card of it in a later trick.
  function revokes(outcomes) {
    const v = [];
    outcomes.forEach(function (outcome, position) {
      if (outcome.winner === null) return;
      const led = outcome.plays[0][1].suit;
      outcome.plays.slice(1).forEach(function (play) {
        const name = play[0], card = play[1];
        if (card.suit === led) return;
        const later = [];
        outcomes.slice(position + 1).forEach(function (t) {
          t.plays.forEach(function (p) { if (p[0] === name) later.push([t.number, p[1]]); });
        });
        const found = later.findIndex(function (pair) { return pair[1].suit === led; });
        if (found >= 0) {
          v.push(violation("must_follow_suit", name, { trick: outcome.number, suit: led,
                                                       card: later[found][1].code, later_trick: later[found][0] }));
        }
      });
    });
    return v;
  }

  // tally.mura_check: counts, or card by card (the first lead checked with a dealer),
  // with the rules ``r`` (the referee's for the seats without them).
  function check(players, data, dealer, r) {
    r = r || seatRules(Array.isArray(players) ? players.length : 0);
    if (data.trick_cards !== null && data.trick_cards !== undefined) {
      return checkCards(players, parseTrickCards(data.trick_cards), dealer, r);
    }
    return checkCounts(players, data.tricks || {}, data.figures || {}, r);
  }

  // --- the session (tally.mura_apply, stored as play.py stores it) -------------------------

  function mapOf(players, f) { const out = {}; players.forEach(function (p) { out[p] = f(p); }); return out; }

  function start(frozen, players, firstDealer) {
    return { mura: mapOf(players, function () { return 0; }), zeros: mapOf(players, function () { return 0; }),
             dealer: firstDealer, deals: 0 };
  }

  // play.normalize: a deal recorded card by card carries the mark that its first lead is
  // checked; a deal of counts is its two maps.
  function normalize(data) {
    if (data.trick_cards !== null && data.trick_cards !== undefined) {
      const out = { trick_cards: data.trick_cards.map(function (t) { return Object.assign({}, t); }) };
      out[D().first_lead] = true;
      return out;
    }
    return { tricks: Object.assign({}, data.tricks || {}), figures: Object.assign({}, data.figures || {}) };
  }

  function apply(frozen, players, state, data) {
    const checked = check(players, data, data[D().first_lead] ? state.dealer : null, rules(frozen));
    if (checked.violations.length) throw new Scorer.Refused(checked.violations);
    const mura = mapOf(players, function (p) { return state.mura[p] + checked.results[p].mura; });
    const zeros = mapOf(players, function (p) { return state.zeros[p] + (checked.results[p].zero ? 1 : 0); });
    const dealer = players[(players.indexOf(state.dealer) + 1) % players.length];
    return S.copy({
      result: { dealer: state.dealer, results: checked.results, mura_after: mura, zeros_after: zeros },
      state: { mura: mura, zeros: zeros, dealer: dealer, deals: state.deals + 1 },
    });
  }

  function board(frozen, players, state) {
    const per = zerosPerMura(frozen);
    return S.copy({
      mura: mapOf(players, function (p) { return state.mura[p]; }),
      zeros: mapOf(players, function (p) { return state.zeros[p]; }),
      zeros_to_next_mura: mapOf(players, function (p) { return per - (((state.zeros[p] % per) + per) % per); }),
      next_dealer: state.dealer,
      deals: state.deals,
    });
  }

  Scorer.register(NAME, { start: start, apply: apply, board: board, normalize: normalize,
                          check: check, firstLeader: firstLeader,
                          tricksFor: function (seats) { return tricksPerDeal(seatRules(seats)); } });
})(typeof self !== "undefined" ? self : globalThis);
