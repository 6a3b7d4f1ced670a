// This game's scorer for the phone (static/scorer.js says what it is for): checking a
// game's result as referee/muller_matz.py's check_result does, counting it as
// referee/tally.py's matz_apply does, stored as this package's apply() stores it (play.py),
// and the board as its board() shows it (scoreboard.py). The data comes from
// rules-data.js, generated from the referee.
(function (global) {
  "use strict";
  const Scorer = global.SchreiberScorer;
  const S = Scorer.shared;
  const NAME = "muller_matz";
  const violation = S.violation;
  function D() { return Scorer.data(NAME); }
  // play.py checks every result with the session's frozen rules, the referee's default
  // for a parameter they lack (play.session_rules), and so does the board.
  function rules(frozen) { return Object.assign({}, D().rules, (frozen && frozen.params) || {}); }

  function names(value, field) {
    if (!Array.isArray(value)) S.refuse(field, "not_list");
    value.forEach(function (p, i) { if (typeof p !== "string" || !p) S.refuse(field + "." + i, "not_name"); });
    return value.slice();
  }

  // check_result: a whole finishing order (winner first), or only the loser.
  function checkResult(players, finishOrder, loser, r) {
    const seats = names(players, "players");
    if (new Set(seats).size !== seats.length) S.refuse("players", "seated_twice");
    if (finishOrder === null && loser === null) S.refuse("finish_order", "missing");
    if (loser !== null && (typeof loser !== "string" || !loser)) S.refuse("loser", "not_name");
    const order = finishOrder !== null ? names(finishOrder, "finish_order") : [];
    const v = [];
    if (!(r.players_min <= seats.length && seats.length <= r.players_max)) {
      v.push(violation("players_count", null, { actual: seats.length, min: r.players_min, max: r.players_max }));
    }
    S.unique(order).forEach(function (name) {
      if (seats.indexOf(name) < 0) v.push(violation("unknown_player", name, { field: "finish_order" }));
      else if (order.filter(function (x) { return x === name; }).length > 1) {
        v.push(violation("player_listed_twice", name, { field: "finish_order" }));
      }
    });
    if (finishOrder !== null) {
      seats.forEach(function (name) {
        if (order.indexOf(name) < 0) v.push(violation("player_missing", name, { field: "finish_order" }));
      });
    }
    if (loser !== null && seats.indexOf(loser) < 0) v.push(violation("unknown_player", loser, { field: "loser" }));
    if (loser !== null && order.length && order[order.length - 1] !== loser) {
      v.push(violation("loser_not_last", loser, { last: order[order.length - 1] }));
    }
    if (loser === null && order.length) loser = order[order.length - 1];
    return { violations: v, loser: loser, order: order };
  }

  // packs_for: 1 pack, 2 from two_packs_from players on (the referee's RuleError outside
  // players_min..players_max).
  function packsFor(players, r) {
    if (players < r.players_min) S.refuse("players", "too_small");
    if (players > r.players_max) S.refuse("players", "too_large");
    return players >= r.two_packs_from ? 2 : 1;
  }

  function mapOf(players, f) { const out = {}; players.forEach(function (p) { out[p] = f(p); }); return out; }

  function start(frozen, players) {
    return { losses: mapOf(players, function () { return 0; }), games: 0 };
  }

  // play.normalize
  function normalize(data) {
    if (data.finish_order !== null && data.finish_order !== undefined) {
      return { finish_order: Array.isArray(data.finish_order) ? data.finish_order.slice() : data.finish_order };
    }
    return { loser: data.loser === undefined ? null : data.loser };
  }

  function apply(frozen, players, state, data) {
    const finish = data.finish_order === undefined ? null : data.finish_order;
    const result = checkResult(players, finish, data.loser === undefined ? null : data.loser,
                               rules(frozen));
    if (result.violations.length || result.loser === null) throw new Scorer.Refused(result.violations);
    const losses = Object.assign({}, state.losses);
    losses[result.loser] += 1;
    return S.copy({
      result: { loser: result.loser, order: result.order, game_number: state.games + 1, losses_after: losses },
      state: { losses: losses, games: state.games + 1 },
    });
  }

  function board(frozen, players, state) {
    return S.copy({
      losses: mapOf(players, function (p) { return state.losses[p]; }),
      games_played: state.games,
      packs: packsFor(players.length, rules(frozen)),
    });
  }

  Scorer.register(NAME, { start: start, apply: apply, board: board, normalize: normalize });
})(typeof self !== "undefined" ? self : globalThis);
