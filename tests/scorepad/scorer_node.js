// Runs the phone's scorer under Node for tests/scorepad/test_scorer.py: reads one JSON
// object from stdin, {"scripts": [paths in the order a page loads them], "sessions":
// [{game, rules, players, first_dealer, deals, state}]} (state: where a server left the
// session, else it starts), and writes for each session what the
// scorer says: its first state and board, and for every deal {ok, result, state, board}
// or {ok: false, violations} or {ok: false, error}. A crash of the scorer is reported as
// {crash} for its session, so that the test names it instead of losing the batch.
// Or {"scripts", "forms": [{game, seats, body}]}: the deal each saved form records.
// Or {"scripts", "words": {key: [path, game]}, "violations": [{language, words, violation}]}:
// each violation in its words (a game's generated words-<language>.js, which the page loads
// with the scorer: ``words`` is their key).
"use strict";
globalThis.self = globalThis;
const fs = require("fs");
const input = JSON.parse(fs.readFileSync(0, "utf8"));
input.scripts.forEach(function (path) { require(path); });
const Scorer = globalThis.SchreiberScorer;

function forms() {   // {game, seats, body}: the deal a saved form records (phone.js)
  return input.forms.map(function (f) {
    try {
      const deal = Scorer.get(f.game).formDeal(new URLSearchParams(f.body), f.seats);
      return { deal: deal === undefined ? "undefined" : deal };
    } catch (e) {
      return { crash: String(e && e.stack || e) };
    }
  });
}

function sessions() {
  return input.sessions.map(function (s) {
    try {
      const state = s.state || Scorer.start(s.game, s.rules, s.players, s.first_dealer);
      const board = Scorer.board(s.game, s.rules, s.players, state);
      const run = Scorer.replay(s.game, s.rules, s.players, state, s.deals);
      return { start: state, board: board, steps: run.steps };
    } catch (e) {
      return { crash: String(e && e.stack || e) };
    }
  });
}

function worded() {   // {language, words, violation}: the violation in words
  const words = {};
  Object.keys(input.words).forEach(function (key) {   // each file as a page loads it alone
    const [path, game] = input.words[key];
    globalThis.SchreiberWords = {};
    require(path);
    words[key] = globalThis.SchreiberWords[game];
  });
  return input.violations.map(function (v) {
    return Scorer.worded(words[v.words], v.violation, v.language);
  });
}

process.stdout.write(JSON.stringify(input.forms ? forms() : (input.violations ? worded() : sessions())));
