// The board keeps counting offline (docs/development.md, "What runs where"). The deals this phone holds,
// not sent yet (outbox.js), are played by the phone's scorer (scorer.js and the game's
// scripts: #provisional's data-scripts, loaded only once there are such deals or a deal is
// about to be kept (refusal: one that breaks a rule is refused on the phone), from the
// service worker's copies when offline; templates/scorepad/_provisional.html) on the state the server last
// sent (the scoreboard's data-scorer; the game, its rules and seats: #provisional's
// data-table), and the scoreboard shows the result, marked
// provisional: scores, who deals next, who sits out, the pending multiplier, the game's
// end. The server stays the authority: every board it sends replaces the provisional one,
// which is counted again from it for the deals still waiting.
//
// Applied like the outbox sends them: in number order from the server's next deal, up
// to the first one that is held (refused, being corrected), incomplete or illegal here.
//
// Online too, before the server's answer (issue 23): a deal saved with the network is
// counted the moment it goes (`going`, saving.js) and the board shows it marked
// provisional until the answer's board replaces it; refused or not sent (`landed`), it is
// dropped and the server's board is back. So that it is counted at once, this script and
// the scorer's load when this phone starts to enter a deal (its first tap or key on the
// entry panel) or holds deals of the session not sent yet (kept.js, `counter`), from the
// browser's cache on a return visit; a page only looked at never loads them (issue 33:
// the session page's weight and its blocking time on a first visit).
(function () {
  "use strict";
  const pristine = new WeakMap();   // each board as the server sent it
  const counting = new Map();       // outbox id → {number, body}: counted on the board
  const sent = new Map();           // number → {number, body}: went, not yet on a board
  const flying = new Set();         // numbers of the saves on their way (online, `going`)
  let seq = 0;

  // The scorer once its scripts have all run (load): before that a game may be half
  // registered (its phone.js, which the first tap loads too, without its scorer.js).
  let ready = false;
  function scorer() { return ready ? window.SchreiberScorer : null; }
  function outbox() { return window.SchreiberOutbox; }
  function section() { return document.getElementById("scoreboard"); }
  function texts() { const el = document.getElementById("provisional"); return el ? el.dataset : {}; }
  function sessionId() { const e = document.getElementById("entry"); return e ? e.dataset.session : null; }

  // The deals that would be sent next, in order, while they can be counted.
  function waiting(entries, from) {
    const out = [];
    for (const e of entries) {
      if (e.status === "refused" || e.status === "editing") break;
      if (e.number >= from) out.push(e);
    }
    return out;
  }

  function restore(board) {
    if (!board.classList.contains("provisional")) return;
    board.innerHTML = pristine.get(board);
    board.classList.remove("provisional");
    delete board.dataset.provisional;
  }

  function note(board, counted) {
    const t = texts();
    const p = document.createElement("p");
    p.className = "provisional-note";
    p.setAttribute("role", "status");
    const badge = document.createElement("strong");
    badge.className = "badge";
    badge.textContent = t.tBadge || "";
    p.append(badge, " " + (t.tNote || ""));
    board.prepend(p);
    board.classList.add("provisional");
    board.dataset.provisional = String(counted);
  }

  let known = null;   // the outbox as last read: a new board is counted at once with it

  // The scorer's scripts, in order, once.
  let loading = null;
  function load() {
    if (!loading) {
      loading = new Promise(function (resolve, reject) {
        const urls = (texts().scripts || "").split(" ").filter(Boolean);
        let left = urls.length;
        if (!left) reject(new Error("no scorer"));
        urls.forEach(function (url) {
          const script = document.createElement("script");
          script.src = url;
          script.async = false;   // in the order given
          script.onload = function () { left -= 1; if (!left) { ready = true; resolve(); } };
          script.onerror = function () { loading = null; reject(new Error("not loaded: " + url)); };
          document.head.append(script);
        });
      });
    }
    return loading;
  }

  // A deal saved online, on its way: counted on the board at once (the scorer loaded), and
  // by render() once it is.
  function going(number, body) {
    if (!number || !section()) return;
    sent.set(number, { number: number, body: body });
    flying.add(number);
    if (scorer() && known) draw(known);
    soon();
  }
  // Its answer came: recorded, the answer's board replaces the board (and drops it, being
  // behind it); refused or not sent, it is dropped here and the board is the server's
  // again (`quiet`: the deal is about to be kept in the outbox, which counts it again).
  function landed(number, quiet) {
    flying.delete(number);
    sent.delete(number);
    if (quiet) return;
    if (known) draw(known);
    soon();
  }

  async function render() {
    const box = outbox();
    if (!section() || !box) return;
    const mine = ++seq;
    let entries;
    try { entries = await box.list(sessionId()); } catch (e) { return; }
    if (mine !== seq) return;   // a newer count
    if (entries.length || counting.size || sent.size) {
      try { await load(); } catch (e) { return; }
      if (mine !== seq) return;
    }
    known = entries;
    draw(entries);
  }

  // The board the server last sent, as the scorer reads it: {board, s (the scorer), data
  // (the session's table with the board's state), game}; null when nothing can be counted.
  function served() {
    const board = section(), s = scorer();
    if (!board || !board.dataset.scorer || !s) return null;
    try {
      const data = Object.assign(JSON.parse(texts().table), JSON.parse(board.dataset.scorer));
      return { board: board, s: s, data: data, game: s.get(data.game) };
    } catch (e) { return null; }
  }

  // Where the session stands after the deals this phone counts (from the state the server
  // last sent): {data, game, state, last (the board then), used, number (the next deal's)},
  // or null when nothing can be counted here.
  function standing(entries) {
    const from = served();
    if (!from) return null;
    const s = from.s, data = from.data, game = from.game;
    if (!game.formDeal || !game.showBoard) return null;
    // The deals counted before that have left the outbox went to the server (a counted
    // deal is never held, so never discarded): until a board of the server shows them,
    // they are counted from the phone's copy, so that the board never falls back.
    const ids = entries.map(function (e) { return e.id; });
    counting.forEach(function (deal, id) { if (ids.indexOf(id) < 0) { sent.set(deal.number, deal); counting.delete(id); } });
    sent.forEach(function (deal, number) { if (number < data.number) { sent.delete(number); flying.delete(number); } });
    const deals = Array.from(sent.values()).sort(function (a, b) { return a.number - b.number; })
      .concat(waiting(entries, data.number));
    // in order from the board's next deal, or the board is behind what this phone knows:
    // it stays as it is until the server's next board
    if (deals.some(function (d, k) { return d.number !== data.number + k; })) return null;
    let state = data.state, last = null, used = 0;
    for (const e of deals) {
      const deal = game.formDeal(new URLSearchParams(e.body), data.players);
      if (deal === null) break;   // incomplete: the server refuses it, and holds the rest
      const done = s.step(data.game, data.rules, data.players, state, deal);
      if (!done.ok) break;        // illegal where it stands: likewise
      state = done.state;
      last = done.board;
      used += 1;
      if (e.id !== undefined) {
        counting.set(e.id, { number: e.number, body: e.body });
        keepCounted(e, game, done.result, data);
      }
    }
    return { data: data, game: game, state: state, last: last, used: used,
             number: data.number + used };
  }

  function draw(entries) {
    const board = section();
    if (!board || !board.dataset.scorer) return;
    if (!scorer()) { restore(board); return; }   // nothing counted yet: the server's board
    const at = standing(entries);
    if (!at) return;
    if (!pristine.has(board)) pristine.set(board, board.innerHTML);
    restore(board);
    form(at);
    if (!at.used || at.last.error) return;
    at.game.showBoard(board, at.last, at.data);
    note(board, at.used);
  }

  // The deal form follows the count: who sits out the next deal (and deals it) as the
  // board says, so that the deals kept one after the other are each entered right (the
  // game's showForm; a form that corrects a deal keeps its own).
  function form(at) {
    const deal = document.getElementById("deal-form");
    // (while a save is on its way the form stays the one it was saved from: a refusal
    // gives it back to be corrected)
    if (!at.game.showForm || !deal || deal.tagName !== "FORM" || deal.dataset.replaces ||
        deal.hasAttribute("data-correcting") || flying.size) return;
    const board = at.used ? at.last : scorer().board(at.data.game, at.data.rules, at.data.players, at.state);
    if (board.error) return;
    at.game.showForm(deal, board, at.data);
    if (window.SchreiberEntry) window.SchreiberEntry.local(deal);
  }

  // --- a deal that breaks a rule is refused on the phone --------------------------------

  // What the server would answer a deal about to be kept on the phone (the saved form's
  // body, its number): the words of every rule it breaks where the session will stand
  // then, after the deals counted before it; [] when it is legal, or when it cannot be
  // checked here (incomplete, behind a deal that is held: the server checks it when it
  // is sent). The scorer is loaded for it, from the service worker's copies offline.
  async function refusal(body, number) {
    const box = outbox();
    if (!section() || !box) return [];
    try { await load(); } catch (e) { return []; }
    let entries;
    try { entries = await box.list(sessionId()); } catch (e) { return []; }
    const at = standing(entries);
    const words = at && wordsOf(at.data.game);
    if (!at || at.number !== number || (at.used && at.last.error) || !words) return [];
    const deal = at.game.formDeal(new URLSearchParams(body), at.data.players);
    if (deal === null) return [];
    const done = scorer().step(at.data.game, at.data.rules, at.data.players, at.state, deal);
    if (done.ok || !done.violations) return [];
    const language = document.documentElement.lang || "en";
    return done.violations.map(function (v) { return scorer().worded(words, v, language); });
  }

  // The violations' words of the game in the page's language: the game's words-<lang>.js,
  // one of the scorer's scripts (data-scripts), not carried by the page; null without them.
  function wordsOf(game) {
    const all = window.SchreiberWords;
    return (all && all[game]) || null;
  }


  // What this phone showed a waiting deal to score (the game's change(): points per
  // player), kept with the deal: if another phone takes its number, the page says what
  // it would score instead (wouldScore, entry.js).
  function keepCounted(entry, game, result, data) {
    if (!game.change || !outbox()) return;
    const counted = JSON.stringify(game.change(result, data).points);
    if (entry.counted !== counted) {
      entry.counted = counted;
      outbox().update(entry.id, { counted: counted }, true).catch(function () { /* not kept: not said */ });
    }
  }

  // What a deal kept on the phone (its form's body) would score as deal ``number`` where
  // the server now stands (the scoreboard's data-scorer), counted with the game's scorer:
  // for a deal whose number another phone took, shown before its owner records it as the
  // next one (entry.js). null: no scorer here (no figures); {at}: the board stands at
  // another number; {at, refused}: illegal there; {at, note, points, state}: its score
  // (the game's change(): the multiplier it gets, points per player) and the state
  // counted from (data-scorer as the server sent it).
  async function wouldScore(body, number) {
    try { await load(); } catch (e) { return null; }
    const from = served();
    if (!from) return null;
    const board = from.board, s = from.s, data = from.data, game = from.game;
    if (!game.formDeal || !game.change) return null;
    if (data.number !== number) return { at: data.number };
    const deal = game.formDeal(new URLSearchParams(body), data.players);
    const done = deal === null ? { ok: false } : s.step(data.game, data.rules, data.players, data.state, deal);
    if (!done.ok) return { at: number, refused: true, state: board.dataset.scorer };
    const change = game.change(done.result, data);
    return { at: number, note: change.note || "", points: change.points, players: data.players,
             state: board.dataset.scorer };
  }

  let timer = null;
  function soon() { clearTimeout(timer); timer = setTimeout(render, 0); }

  // loaded because it is needed (kept.js): the scorer's scripts at once
  if (section() && texts().scripts) load().catch(function () { /* loaded again when needed */ });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", soon);
  else soon();
  document.addEventListener("schreiber:outbox", soon);           // this page changed the outbox
  // A board the server sent (a poll, a save) is counted the moment it is in the page,
  // before it is ever drawn without the deals (htmx announces an outerHTML swap on the
  // board that left, where a listener never hears it).
  let current = null;
  new MutationObserver(function () {
    const board = section();
    if (!board || board === current) return;
    current = board;
    if (known) draw(known);
    soon();
    document.dispatchEvent(new CustomEvent("schreiber:board"));   // entry.js: a conflict's figures
  }).observe(document.documentElement, { childList: true, subtree: true });
  const box = outbox();
  if (box && box.channel) box.channel.addEventListener("message", soon);   // another tab, the worker
  window.SchreiberProvisional = { render: render, refusal: refusal, going: going, landed: landed,
                                  wouldScore: wouldScore };
})();
