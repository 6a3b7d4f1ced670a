// What a session page of this game does on the phone. With the deal form (static/entry.js,
// which loads this with it): the deal in words for the list of deals kept on the phone.
// With the phone's scorer (static/provisional.js, which loads this again after the
// scorer): reads a saved deal form into the deal the server would record (form.py's
// form_deal: counts, or card by card with the leaders the form fills in), and shows a
// provisional board in the board's own markup (templates/scorepad/_board_mura.html).
(function (global) {
  "use strict";
  const NAME = "mura";
  const Scorer = { get: function (name) { return global.SchreiberScorer.get(name); } };
  const MODES = ["", "cards"];

  function last(params, name) { const all = params.getAll(name); return all.length ? all[all.length - 1] : null; }
  function count(value) { return value !== null && /^[0-9]{1,19}$/.test(value) ? Number(value) : null; }
  function inferred(counts, total) {
    const blanks = Object.keys(counts).filter(function (p) { return counts[p] === null; });
    let entered = 0;
    Object.keys(counts).forEach(function (p) { if (counts[p] !== null) entered += counts[p]; });
    const out = {};
    if (blanks.length === 1 && entered <= total) out[blanks[0]] = total - entered;
    else if (blanks.length > 1 && entered === total) blanks.forEach(function (p) { out[p] = 0; });
    return out;
  }
  // Python's str.strip()
  const WHITE = "[\\t\\n\\v\\f\\r \\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
  const SPACE = new RegExp("^" + WHITE + "+|" + WHITE + "+$", "g");

  // counts_entry and counts_data: a blank that can only be one number is that number.
  function countsDeal(params, seats) {
    const tricks = {}, figures = {};
    seats.forEach(function (p, i) {
      tricks[p] = count(last(params, "t_" + i));
      figures[p] = count(last(params, "f_" + i));
    });
    const autoTricks = inferred(tricks, Scorer.get(NAME).tricksFor(seats.length));
    const autoFigures = {};
    seats.forEach(function (p) {
      const shown = tricks[p] === null ? autoTricks[p] : tricks[p];
      if (figures[p] === null && shown === 0) autoFigures[p] = 0;
    });
    function filled(counts, auto) {
      const out = {};
      seats.forEach(function (p) {
        if (counts[p] !== null) out[p] = counts[p];
        else if (Object.prototype.hasOwnProperty.call(auto, p)) out[p] = auto[p];
      });
      return out;
    }
    return { tricks: filled(tricks, autoTricks), figures: filled(figures, autoFigures) };
  }

  // cards_entry, _check_cards (a blank leader after a decided trick is its winner) and
  // cards_data.
  function cardsDeal(params, seats) {
    const entry = [];
    const tricks = Scorer.get(NAME).tricksFor(seats.length);   // play.tricks_for
    for (let t = 0; t < tricks; t += 1) {
      const lead = count(last(params, "l_" + t));
      const cards = {};
      seats.forEach(function (p, i) { cards[p] = String(last(params, "c_" + t + "_" + i) || "").replace(SPACE, ""); });
      entry.push({ leader: lead !== null && lead < seats.length ? seats[lead] : null, cards: cards });
    }
    const game = Scorer.get(NAME);
    for (;;) {
      let checked;
      try { checked = game.check(seats, data(entry), null); } catch (e) { break; }   // the server names it
      let filled = false;
      for (let k = 0; k + 1 < checked.tricks.length && k + 1 < entry.length; k += 1) {
        const trick = entry[k + 1], winner = checked.tricks[k].winner;
        if (trick.leader === null && winner !== null && Object.keys(trick.cards).some(function (p) { return trick.cards[p]; })) {
          trick.leader = winner;
          filled = true;
          break;
        }
      }
      if (!filled) break;
    }
    return data(entry);
  }
  function blank(trick) { return trick.leader === null && !Object.keys(trick.cards).some(function (p) { return trick.cards[p]; }); }
  function data(entry) {
    let lastBegun = -1;
    entry.forEach(function (trick, t) { if (!blank(trick)) lastBegun = t; });
    return { trick_cards: entry.slice(0, lastBegun + 1).map(function (trick) {
      const cards = {};
      Object.keys(trick.cards).forEach(function (p) { if (trick.cards[p]) cards[p] = trick.cards[p]; });
      return { leader: trick.leader || "", cards: cards };
    }) };
  }

  function formDeal(params, seats) {
    const mode = last(params, "mode") || "";
    return MODES.indexOf(mode) >= 0 && mode === "cards" ? cardsDeal(params, seats) : countsDeal(params, seats);
  }

  // A count in the words of the board (scorer_texts: the forms one and other).
  function counted(forms, n) {
    if (!forms) return null;
    const rule = new Intl.PluralRules(document.documentElement.lang || undefined).select(n);
    return (forms[rule] || forms.other).replace("%(n)s", String(n));
  }

  // The server's board (its markup) showing ``board``.
  function showBoard(section, board, session) {
    const texts = session.texts || {};
    const title = section.querySelector(".board-title small");
    const was = counted(texts.deals, session.state.deals), now = counted(texts.deals, board.deals);
    if (title && was && now) title.textContent = title.textContent.replace(was, now);
    const rows = section.querySelectorAll("table.tally tbody tr");
    const mark = section.querySelector(".dealer-mark");
    session.players.forEach(function (p, i) {
      const row = rows[i];
      if (!row) return;
      const cells = row.querySelectorAll("td");
      if (cells[0]) cells[0].textContent = String(board.mura[p]);
      if (cells[1] && cells[1].firstChild) cells[1].firstChild.textContent = board.zeros[p] + " ";
      const next = cells[1] && cells[1].querySelector(".to-next");
      const left = board.zeros_to_next_mura[p];
      if (next && texts.to_go) {
        next.textContent = "(" + counted(texts.to_go, left) + ")";
        next.title = counted(texts.to_next, left);
      }
      if (cells[2]) cells[2].classList.add("stale");   // the money: the server's, as it was
      row.classList.toggle("dealer", p === board.next_dealer);
      const head = row.querySelector("th");
      if (p === board.next_dealer && mark && head && mark.parentNode !== head) {
        head.append(" ", mark);  // as the server writes it: the name, a space, the badge
      }
    });
    const dealer = section.querySelector("p.next strong.pname");
    if (dealer) dealer.textContent = board.next_dealer;
  }

  // What a deal scores (its result): each player's mura points, no multiplier
  // (static/provisional.js: a deal whose number another phone took).
  function change(result, session) {
    const points = {};
    session.players.forEach(function (p) { points[p] = result.results[p] ? result.results[p].mura : 0; });
    return { note: "", points: points };
  }

  // --- the deal form (static/entry.js's hooks) --------------------------------------------

  // The deal in words: "card by card, 3 of 8 tricks", or the tricks and figures by name.
  function describe(form) {
    if (form.id !== "deal-form") return null;
    const Entry = global.SchreiberEntry, d = form.dataset, parts = [];
    const counts = Entry.describeCounts(form);
    if (counts) parts.push(counts);
    if (d.describeCards) {
      const done = Array.prototype.filter.call(form.querySelectorAll("[data-trick]"), function (trick) {
        const slots = trick.querySelectorAll("select[data-card-slot]");
        return slots.length && Array.prototype.every.call(slots, function (s) { return s.value; });
      });
      parts.push(Entry.fill(d.describeCards, { n: done.length }));
    }
    return parts.join(" · ");
  }

  if (global.SchreiberEntry) global.SchreiberEntry.hook({ describe: describe });
  if (global.SchreiberScorer) {
    global.SchreiberScorer.register(NAME, { formDeal: formDeal, showBoard: showBoard, change: change });
  }
})(typeof self !== "undefined" ? self : globalThis);
