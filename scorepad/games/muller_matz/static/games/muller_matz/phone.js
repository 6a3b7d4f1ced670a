// What a session page of this game does on the phone. With the game form (static/entry.js,
// which loads this with it): the game in words for the list of games kept on the phone.
// With the phone's scorer (static/provisional.js, which loads this again after the
// scorer): reads a saved game form into the result the server would record (form.py's
// form_deal), and shows a provisional board in the board's own markup
// (templates/scorepad/_board_matz.html).
(function (global) {
  "use strict";
  const NAME = "muller_matz";
  const WHITE = "[\\t\\n\\v\\f\\r \\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
  const SPACE = new RegExp("^" + WHITE + "+|" + WHITE + "+$", "g");

  function last(params, name) { const all = params.getAll(name); return all.length ? all[all.length - 1] : null; }

  // form_deal: the whole finishing order (o_<place>), or the loser's button.
  function formDeal(params, seats) {
    if (last(params, "mode") === "order") {
      return { finish_order: seats.map(function (p, k) { return String(last(params, "o_" + k) || "").replace(SPACE, ""); }) };
    }
    return { loser: last(params, "loser") || "" };
  }

  // A count in the words of the board (scorer_texts: the forms one and other).
  function counted(forms, n) {
    if (!forms) return null;
    const rule = new Intl.PluralRules(document.documentElement.lang || undefined).select(n);
    return (forms[rule] || forms.other).replace("%(n)s", String(n));
  }

  function showBoard(section, board, session) {
    const texts = session.texts || {};
    const title = section.querySelector(".board-title small");
    const was = counted(texts.games, session.state.games), now = counted(texts.games, board.games_played);
    if (title && was && now) title.textContent = title.textContent.replace(was, now);
    const rows = section.querySelectorAll("table.tally tbody tr");
    session.players.forEach(function (p, i) {
      const row = rows[i];
      if (!row) return;
      const cells = row.querySelectorAll("td");
      if (cells[0]) cells[0].textContent = String(board.losses[p]);
      if (cells[1]) cells[1].classList.add("stale");   // the money: the server's, as it was
    });
  }

  // What a game scores (its result): a loss for its loser (static/provisional.js: a
  // game whose number another phone took).
  function change(result, session) {
    const points = {};
    session.players.forEach(function (p) { points[p] = p === result.loser ? 1 : 0; });
    return { note: "", points: points };
  }

  // --- the game form (static/entry.js's hooks) --------------------------------------------

  // The game in words: "Anna is the Müller Matz" (its one-tap button), or the finishing
  // order as chosen ("Bert → Anna → ?").
  function describe(form, submitter) {
    const Entry = global.SchreiberEntry;
    if (submitter && submitter.name === "loser") {
      const box = form.closest("[data-describe-loser]");
      return box ? Entry.fill(box.dataset.describeLoser, { p: submitter.value }) : submitter.value;
    }
    if (form.id !== "deal-form" || !form.dataset.describeOrder) return null;
    const order = Array.prototype.map.call(form.querySelectorAll("select[name^=o_]"), function (s) { return s.value || "?"; });
    return Entry.fill(form.dataset.describeOrder, { list: order.join(" → ") });
  }

  if (global.SchreiberEntry) global.SchreiberEntry.hook({ describe: describe });
  if (global.SchreiberScorer) {
    global.SchreiberScorer.register(NAME, { formDeal: formDeal, showBoard: showBoard, change: change });
  }
})(typeof self !== "undefined" ? self : globalThis);
