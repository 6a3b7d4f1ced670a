// The phone's scorer: what the server's board would show after the deals this phone holds,
// computed on the phone with the session's frozen rules (docs/development.md, "What runs where").
//
// This file knows no game. Each game's package brings two scripts of its own (its app's
// static files, served under /static/games/<game>/): rules-data.js, GENERATED from
// the referee by `manage.py scorer_data` (its presets, parameters, codes and constants:
// never typed in twice), and scorer.js, the referee's logic written out in JavaScript,
// which registers itself here. The server stays the authority: whatever this computes is
// provisional until the server's answer replaces it, and tests/scorepad/test_scorer.py
// plays thousands of random deals through both and requires identical answers.
//
// Every game's scorer speaks the server's JSON: a session's state as the server stores it
// (session.state), a deal as the server stores it, a deal's result as the server keeps it
// and the board as the game's scoreboard answers it; players are whatever strings the
// session's state uses (the server's player ids on the pages, names in the tests).
//
// A classic script, like outbox.js: the pages load it with <script defer>, a service
// worker could importScripts() it, Node require()s it (the differential test); no build
// step, and no module imports that collectstatic's hashed file names would break.
(function (global) {
  "use strict";
  const games = {};

  // --- what the games share ----------------------------------------------------------

  // A violation as the referee's Violation.as_dict(): {code, player?, params?}.
  function violation(code, player, params) {
    const out = { code: code };
    if (player !== null && player !== undefined) out.player = player;
    if (params && Object.keys(params).length) out.params = params;
    return out;
  }

  // What the referee cannot read (its RuleError; the server's InputError): {field, code}.
  function InputProblem(field, code) {
    this.field = field;
    this.code = code;
    this.message = field + ": " + code;
  }
  InputProblem.prototype = Object.create(Error.prototype);
  InputProblem.prototype.name = "InputProblem";
  function refuse(field, code) { throw new InputProblem(field, code); }

  // Python's string order (code points), not JavaScript's (UTF-16 units).
  function compare(a, b) {
    if (a === b) return 0;
    const x = Array.from(a), y = Array.from(b);
    for (let k = 0; k < Math.min(x.length, y.length); k += 1) {
      const d = x[k].codePointAt(0) - y[k].codePointAt(0);
      if (d) return d < 0 ? -1 : 1;
    }
    return x.length - y.length < 0 ? -1 : (x.length === y.length ? 0 : 1);
  }
  // Tuples compared as Python compares them: element by element, numbers and strings.
  function compareTuples(a, b) {
    for (let k = 0; k < Math.min(a.length, b.length); k += 1) {
      const x = a[k], y = b[k];
      const d = typeof x === "string" ? compare(x, y) : (x < y ? -1 : (x > y ? 1 : 0));
      if (d) return d;
    }
    return a.length - b.length;
  }
  // dict.fromkeys(items): the items once each, first seen first.
  function unique(items) {
    const out = [];
    items.forEach(function (x) { if (out.indexOf(x) < 0) out.push(x); });
    return out;
  }
  function has(map, key) { return map != null && Object.prototype.hasOwnProperty.call(map, key); }
  function keys(map) { return map == null ? [] : Object.keys(map); }
  function copy(value) { return value == null ? value : JSON.parse(JSON.stringify(value)); }
  // A whole number as Python's int (not a bool, not 1.5).
  function isInt(value) { return typeof value === "number" && Number.isInteger(value); }
  // -0 is 0 (a JSON client would never see the difference; comparisons should not either).
  function zero(n) { return n === 0 ? 0 : n; }

  const shared = { violation: violation, refuse: refuse, InputProblem: InputProblem,
                   compare: compare, compareTuples: compareTuples, unique: unique, has: has,
                   keys: keys, copy: copy, isInt: isInt, zero: zero };

  // --- the registry ----------------------------------------------------------------------

  // A game's scorer: {start(rules, players, firstDealer) → state,
  //                   normalize(deal) → the deal as the server stores it (optional),
  //                   apply(rules, players, state, deal) → {result, state} (or throws
  //                     Refused {violations} / InputProblem), board(rules, players, state)}
  // and, on the pages, its phone.js: {formDeal(params, seats) → the deal a saved form
  // records (null while incomplete), showBoard(section, board, session)}.
  // ``rules`` is the session's frozen rules: {preset, params} (session.preset, session.rules).
  // A game's parts register one after the other (its scorer.js, its phone.js).
  function register(name, game) { games[name] = Object.assign(games[name] || {}, game); }
  function get(name) {
    const game = games[name];
    if (!game) throw new Error("no scorer for this game: " + name);
    return game;
  }
  // The generated data of a game (its rules-data.js).
  function data(name) {
    const all = global.SchreiberRulesData || {};
    if (!all[name]) throw new Error("no rules data for this game: " + name);
    return all[name];
  }

  function Refused(violations) { this.violations = violations; this.message = "refused"; }
  Refused.prototype = Object.create(Error.prototype);
  Refused.prototype.name = "Refused";

  // One deal on a state: {ok: true, result, state, board} when it is legal, {ok: false,
  // violations} when it breaks a rule where it stands (nothing changes), {ok: false,
  // error: {field, code}} when it cannot be read.
  function step(name, rules, players, state, deal) {
    const game = get(name);
    try {
      const stored = game.normalize ? game.normalize(deal) : deal;   // as the server stores it
      const done = game.apply(rules, players, state, stored);
      return { ok: true, result: done.result, state: done.state,
               board: board(name, rules, players, done.state) };
    } catch (e) {
      if (e instanceof Refused) return { ok: false, violations: e.violations };
      if (e instanceof InputProblem) return { ok: false, error: { field: e.field, code: e.code } };
      throw e;
    }
  }

  // The deals a phone holds, one after the other, from the last state the server sent:
  // what each did, and where it leaves the session. An illegal deal changes nothing; the
  // deals after it are applied where the session then stands (the server would keep them
  // waiting behind it: the page says so).
  function replay(name, rules, players, state, deals) {
    let now = state;
    const steps = deals.map(function (deal) {
      const done = step(name, rules, players, now, deal);
      if (done.ok) now = done.state;
      return done;
    });
    return { steps: steps, state: now, board: board(name, rules, players, now) };
  }

  function start(name, rules, players, firstDealer) {
    return get(name).start(rules, players, firstDealer);
  }
  function board(name, rules, players, state) {
    try {
      return get(name).board(rules, players, state);
    } catch (e) {
      if (e instanceof InputProblem) return { error: { field: e.field, code: e.code } };
      throw e;
    }
  }

  // --- a violation in words ----------------------------------------------------------------

  // A violation in the server's words (scorepad/messages.py, violation_message), from the
  // templates it chooses from (``words``: messages.violation_words of the session's game, in
  // the page's language, which names ``language``); tests/scorepad/test_scorer.py compares
  // the two. Every code the game's rules report has its words there.
  function fields(template) {
    const out = [];
    String(template).replace(/\{(\w+)\}/g, function (m, k) { out.push(k); return m; });
    return out;
  }
  function fits(template, values) {
    return fields(template).every(function (k) {
      return has(values, k) && values[k] !== "" && values[k] !== null && values[k] !== undefined;
    });
  }
  function fill(template, values) {
    return String(template).replace(/\{(\w+)\}/g, function (m, k) { return has(values, k) ? String(values[k]) : "?"; });
  }
  function category(n, language) {   // the plural form: "one" or "other"
    try { return new Intl.PluralRules(language).select(n) === "one" ? "one" : "other"; }
    catch (e) { return n === 1 ? "one" : "other"; }
  }
  function worded(words, v, language) {
    const raw = Object.assign({ player: v.player || "" }, v.params || {});
    const template = words.codes[v.code];
    const values = Object.assign({}, raw);   // codes among the values, as words
    Object.keys(values).forEach(function (name) {
      const texts = words.values[name];
      if (texts && typeof values[name] === "string" && has(texts, values[name])) values[name] = texts[values[name]];
    });
    const by = words.by_value[v.code];
    if (by && has(raw, by[0])) {
      const value = raw[by[0]];
      let chosen = typeof value === "string" || isInt(value) ? by[1][String(value)] : undefined;
      if (chosen === undefined) chosen = by[1]["*"];
      if (chosen !== undefined && fits(chosen, values)) return fill(chosen, values);
    }
    const counted = words.plurals[v.code];
    if (counted && isInt(values[counted[0]]) && fits(template, values)) {
      return fill(counted[1][category(values[counted[0]], language)], values);
    }
    for (const variant of words.variants[v.code] || []) {
      if (fits(variant, values)) return fill(variant, values);
    }
    return fill(template, values);
  }

  global.SchreiberScorer = { register: register, get: get, data: data, shared: shared,
                             Refused: Refused, step: step, replay: replay, start: start,
                             board: board, worded: worded };
})(typeof self !== "undefined" ? self : globalThis);
