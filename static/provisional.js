// The board keeps counting offline (README: "What runs where"). The deals this phone holds,
// not sent yet (outbox.js), are played by the phone's scorer (scorer.js and the game's
// scripts: #provisional's data-scripts, loaded only once there are such deals, from the
// service worker's copies when offline; templates/scorepad/_provisional.html) on the state the server last
// sent (the scoreboard's data-scorer; the game, its rules and seats: #provisional's
// data-table), and the scoreboard shows the result, marked
// provisional: scores, who deals next, who sits out, the pending multiplier, the game's
// end. The server stays the authority: every board it sends replaces the provisional one,
// which is counted again from it for the deals still waiting.
//
// Applied like the outbox sends them: in number order from the server's next deal, up
// to the first one that is held (refused, being corrected), incomplete or illegal here.
(function () {
  "use strict";
  const pristine = new WeakMap();   // each board as the server sent it
  const counting = new Map();       // outbox id → {number, body}: counted on the board
  const sent = new Map();           // number → {number, body}: went, not yet on a board
  let seq = 0;

  function scorer() { return window.SchreiberScorer; }
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
          script.onload = function () { left -= 1; if (!left) resolve(); };
          script.onerror = function () { loading = null; reject(new Error("not loaded: " + url)); };
          document.head.append(script);
        });
      });
    }
    return loading;
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

  function draw(entries) {
    const board = section();
    const s = scorer();
    if (!board || !board.dataset.scorer) return;
    if (!s) { restore(board); return; }   // nothing counted yet: the server's board
    let data, game;
    try {
      data = Object.assign(JSON.parse(texts().table), JSON.parse(board.dataset.scorer));
      game = s.get(data.game);
    } catch (e) { return; }
    if (!game.formDeal || !game.showBoard) return;
    if (!pristine.has(board)) pristine.set(board, board.innerHTML);
    // The deals counted before that have left the outbox went to the server (a counted
    // deal is never held, so never discarded): until a board of the server shows them,
    // they are counted from the phone's copy, so that the board never falls back.
    const ids = entries.map(function (e) { return e.id; });
    counting.forEach(function (deal, id) { if (ids.indexOf(id) < 0) { sent.set(deal.number, deal); counting.delete(id); } });
    sent.forEach(function (deal, number) { if (number < data.number) sent.delete(number); });
    const deals = Array.from(sent.values()).sort(function (a, b) { return a.number - b.number; })
      .concat(waiting(entries, data.number));
    // in order from the board's next deal, or the board is behind what this phone knows:
    // it stays as it is until the server's next board
    if (deals.some(function (d, k) { return d.number !== data.number + k; })) return;
    restore(board);
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
    if (!used || last.error) return;
    game.showBoard(board, last, data);
    note(board, used);
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
    const board = section(), s = scorer();
    if (!board || !board.dataset.scorer || !s) return null;
    let data, game;
    try {
      data = Object.assign(JSON.parse(texts().table), JSON.parse(board.dataset.scorer));
      game = s.get(data.game);
    } catch (e) { return null; }
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

  document.addEventListener("DOMContentLoaded", soon);
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
  document.addEventListener("DOMContentLoaded", function () {
    const box = outbox();
    if (box && box.channel) box.channel.addEventListener("message", soon);   // another tab, the worker
  });
  window.SchreiberProvisional = { render: render, wouldScore: wouldScore };
})();
