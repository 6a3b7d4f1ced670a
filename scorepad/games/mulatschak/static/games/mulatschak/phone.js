// What a session page of this game does on the phone. With the deal form (static/entry.js,
// which loads this with it): the one-tap split of the tricks and the deal in words for the
// list of deals kept on the phone. With the phone's scorer (static/provisional.js, which
// loads this again after the scorer): reads a saved deal form into the deal the server
// would record (form_deal: DealEntry and its as_deal), and shows a provisional board in the
// board's own markup (templates/scorepad/_board_mulatschak.html, board_context,
// factors_text).
(function (global) {
  "use strict";
  const NAME = "mulatschak";
  const Scorer = { data: function (name) { return global.SchreiberScorer.data(name); } };
  const MULI = 5;
  const FORMS = ["on_sight", "ace_five", "seven_six", "bridge"];   // SPECIAL_FORMS
  const YES = ["1", "on", "true"];
  const MINUS = "\u2212";

  // QueryDict.get: the last value of a name.
  function last(params, name) { const all = params.getAll(name); return all.length ? all[all.length - 1] : null; }
  // ids.parse_count: ASCII digits, 0 or more.
  function count(value) { return value !== null && /^[0-9]{1,19}$/.test(value) ? Number(value) : null; }

  // base.inferred: the blanks that can only be one number.
  function inferred(counts, total) {
    const blanks = Object.keys(counts).filter(function (p) { return counts[p] === null; });
    let entered = 0;
    Object.keys(counts).forEach(function (p) { if (counts[p] !== null) entered += counts[p]; });
    const out = {};
    if (blanks.length === 1 && entered <= total) out[blanks[0]] = total - entered;
    else if (blanks.length > 1 && entered === total) blanks.forEach(function (p) { out[p] = 0; });
    return out;
  }

  // form_deal: the deal a sent form records (names), or null while it lacks what the
  // referee needs (no declarer, bid or trump).
  function formDeal(params, seats) {
    const outAt = count(last(params, "out"));
    const out = outAt !== null && outAt < seats.length ? seats[outAt] : null;
    let kind = last(params, "kind") || "played";
    if (["played", "collapsed", "passed"].indexOf(kind) < 0) kind = "played";
    const knocked = YES.indexOf(last(params, "knocked")) >= 0;
    if (kind !== "played") return { kind: kind, knocked: knocked };
    const declarer = seats.indexOf(last(params, "declarer")) >= 0 ? last(params, "declarer") : null;
    const bidCount = count(last(params, "bid"));
    const bid = bidCount !== null && bidCount >= 1 && bidCount <= MULI ? bidCount : null;
    const trump = Scorer.data(NAME).suits.indexOf(last(params, "trump")) >= 0 ? last(params, "trump") : null;
    if (declarer === null || bid === null || trump === null) return null;
    const homeAt = params.getAll("home");
    const home = seats.filter(function (p, i) { return homeAt.indexOf(String(i)) >= 0; });
    const tricks = {}, exchanged = {}, forms = {}, refused = {}, faceUp = {};
    seats.forEach(function (p, i) {
      tricks[p] = count(last(params, "t_" + i));
      exchanged[p] = count(last(params, "x_" + i));
      const form = last(params, "xf_" + i) || "";
      forms[p] = FORMS.indexOf(form) >= 0 ? form : "";
      refused[p] = YES.indexOf(last(params, "xr_" + i)) >= 0;
      faceUp[p] = count(last(params, "xu_" + i));
    });
    const chainUp = count(last(params, "chain_up"));
    const chainKept = count(last(params, "chain_kept"));
    const delayed = YES.indexOf(last(params, "trump_delayed")) >= 0;
    const breaker = seats.indexOf(last(params, "breaker")) >= 0 ? last(params, "breaker") : null;

    const playing = {};
    seats.forEach(function (p) { if (home.indexOf(p) < 0 && p !== out) playing[p] = tricks[p]; });
    const auto = inferred(playing, MULI);
    const counted = {};
    Object.keys(playing).forEach(function (p) {
      if (playing[p] !== null) counted[p] = playing[p];
      else if (Object.prototype.hasOwnProperty.call(auto, p)) counted[p] = auto[p];
    });
    const plain = {};
    seats.forEach(function (p) { if (exchanged[p] && p !== out) plain[p] = exchanged[p]; });
    const exchanges = {};
    seats.forEach(function (p) {
      if (p === out || !forms[p]) return;
      const entry = { form: forms[p] };
      if (forms[p] === "on_sight") entry.refused = refused[p];
      else if (forms[p] === "bridge") entry.face_up = faceUp[p] === null ? 1 : faceUp[p];
      exchanges[p] = entry;
    });
    if (!Object.prototype.hasOwnProperty.call(exchanges, declarer) && chainUp) {
      exchanges[declarer] = { form: "plain", cards: exchanged[declarer] || 0, face_up: chainUp,
                              face_up_kept: chainKept === null ? chainUp : chainKept };
    }
    Object.keys(exchanges).forEach(function (p) { delete plain[p]; });
    const deal = { kind: "played", declarer: declarer, bid: bid, trump: trump, stayed_home: home,
                   tricks: counted, knocked: knocked,
                   exchanged: Object.keys(plain).length ? plain : null, muli_breaker: breaker };
    if (Object.keys(exchanges).length) deal.exchanges = exchanges;
    if (delayed) deal.trump_delayed = true;
    return deal;
  }

  // --- the board ---------------------------------------------------------------------------

  function minus(n) { const text = String(n); return text.charAt(0) === "-" ? MINUS + text.slice(1) : text; }
  const SUPERSCRIPT = "⁰¹²³⁴⁵⁶⁷⁸⁹";
  // factors_text: "♥ hearts × collapse = ×4", a run of four or more as a power.
  function factorsText(factors, multiplier, labels) {
    if (!factors.length) return "×1";
    const runs = [];
    factors.forEach(function (f) {
      if (runs.length && runs[runs.length - 1][0] === f) runs[runs.length - 1][1] += 1;
      else runs.push([f, 1]);
    });
    const label = function (f) { return labels[f] || f; };
    return runs.map(function (run) {
      if (run[1] < 4) return Array(run[1]).fill(label(run[0])).join(" × ");
      return label(run[0]) + String(run[1]).replace(/[0-9]/g, function (d) { return SUPERSCRIPT[+d]; });
    }).join(" × ") + " = ×" + multiplier;
  }
  function names(list) {
    const frag = document.createDocumentFragment();
    list.forEach(function (p, k) {
      if (k) frag.append(", ");
      const span = document.createElement("span");
      span.className = "pname";
      span.textContent = p;
      frag.append(span);
    });
    return frag;
  }

  // The server's board (its markup) showing ``board``, as the template would have drawn it.
  function showBoard(section, board, session) {
    const texts = session.texts || {};
    const title = section.querySelector(".board-title small");
    if (title) title.textContent = title.textContent.replace(/[0-9]+/, String(board.game_number));
    const list = section.querySelector("ol.scores");
    const rows = list ? list.children : [];
    const mark = section.querySelector(".dealer-mark");
    const sits = section.querySelector(".sits-out");
    session.players.forEach(function (p, i) {
      const li = rows[i];
      if (!li) return;
      const score = li.querySelector(".score");
      if (score) score.textContent = minus(board.scores[p]);
      li.classList.toggle("winner", board.winners.indexOf(p) >= 0);
      li.classList.toggle("dealer", p === board.next_dealer);
      li.classList.toggle("sitting-out", p === board.next_sitting_out);
      if (p === board.next_dealer && mark) li.append(mark);
      if (p === board.next_sitting_out && sits) li.append(sits);
    });
    if (sits && !board.next_sitting_out) sits.remove();
    const next = section.querySelector("p.next");
    if (next) {
      const dealer = next.querySelector("strong.pname");
      if (dealer) dealer.textContent = board.next_dealer;
      const out = next.querySelector(".next-sitting-out strong");
      if (out && board.next_sitting_out) out.textContent = board.next_sitting_out;
      const multiplier = next.querySelector(".multiplier");
      if (multiplier) {
        multiplier.textContent = factorsText(board.pending_factors, board.pending_multiplier, texts.factors || {});
      }
    }
    let banner = section.querySelector("p.banner");
    if (banner) banner.remove();
    if (board.game_over) {
      banner = document.createElement("p");
      banner.className = "banner";
      const strong = document.createElement("strong");
      strong.append(names(board.winners));
      banner.append((texts.game_over || "") + " — " + (texts.winner || "") + ": ", strong, ". " + (texts.new_game || ""));
      if (list) list.before(banner);
    }
  }

  // The deal form for the deal after ``board`` (scorepad/_form_mulatschak.html): who sits
  // out it (its hidden ``out``, the note that names the player), and that seat's parts
  // (data-seat: the declarer's chip, the tricks, the exchange, the Muli breaker) kept out
  // of the form in a <template data-seat-out>, everybody else's in it. A table where
  // nobody sits out has no ``out``: nothing changes.
  function showForm(form, board, session) {
    const field = form.querySelector("input[name=out]");
    const at = session.players.indexOf(board.next_sitting_out);
    if (!field || at < 0 || field.value === String(at)) return;
    field.value = String(at);
    const name = form.querySelector(".sitting-out-note .pname");
    if (name) name.textContent = board.next_sitting_out;
    form.querySelectorAll("template[data-seat-out]").forEach(function (kept) {
      kept.content.querySelectorAll("input, option").forEach(function (el) {   // as the page gave it
        if (el.tagName === "OPTION") el.selected = el.defaultSelected;
        else if (el.type === "radio" || el.type === "checkbox") el.checked = el.defaultChecked;
        else el.value = el.defaultValue;
      });
      kept.replaceWith(kept.content);
    });
    form.querySelectorAll('[data-seat="' + at + '"]').forEach(function (part) {
      const kept = document.createElement("template");
      kept.dataset.seatOut = String(at);
      part.replaceWith(kept);
      kept.content.append(part);
    });
  }

  // What a deal scores (its result): the multiplier it gets, in the board's words, and
  // each player's change (static/provisional.js: a deal whose number another phone took).
  function change(result, session) {
    const labels = (session.texts || {}).factors || {};
    return { note: factorsText(result.factors || [], result.multiplier, labels), points: result.deltas || {} };
  }

  // --- the deal form (static/entry.js's hooks) --------------------------------------------

  // One tap for the common split: the declarer made the bid exactly, everybody else 1; a
  // Muli: the declarer all five.
  function splitOffer(form, counts) {
    const button = form.querySelector("[data-split]");
    if (!button) return;
    const Entry = global.SchreiberEntry;
    const declarer = form.querySelector("input[name=declarer]:checked");
    const bid = form.querySelector("input[name=bid]:checked");
    const row = declarer && counts.playing.find(function (r) { return r.dataset.player === declarer.value; });
    button.hidden = true;
    if (!row || !bid) return;
    const b = parseInt(bid.value, 10), group = counts.group;
    const others = counts.playing.filter(function (r) { return r !== row; });
    let text = group.dataset.madeText, each = null;
    if (b === counts.total) { text = group.dataset.muliText; each = 0; }
    else if (counts.total - b === others.length) { text = group.dataset.splitText; each = 1; }
    // a Muli's "all five" right under the bids, where the eye is once Muli is chosen (a
    // newcomer tapped "+" five times); the others above the tricks
    const offer = button.parentElement, bids = form.querySelector("fieldset.bids .chip-row");
    if (b === counts.total && bids) { if (offer.previousElementSibling !== bids) bids.after(offer); }
    else if (offer.parentElement !== group) group.querySelector("legend").after(offer);
    const label = form.querySelector('label[for="' + bid.id + '"]');
    button.textContent = Entry.fill(text, { player: declarer.value, bid: label ? label.textContent.trim() : b });
    button.dataset.plan = JSON.stringify({ player: declarer.value, bid: b, each: each });
    button.hidden = false;
  }

  function applySplit(button, form) {
    const Entry = global.SchreiberEntry;
    const plan = JSON.parse(button.dataset.plan || "{}");
    Entry.rowsOf(form).forEach(function (row) {
      if (row.classList.contains("home")) return;
      const input = Entry.countIn(row, "tricks");
      if (row.dataset.player === plan.player) Entry.setCount(input, plan.bid);
      else if (plan.each !== null) Entry.setCount(input, plan.each);
    });
    Entry.changed(form);
  }

  // The deal in words: "Anna bids 3, trump Bells · knocked · tricks Anna 3, Bert 1, …".
  function describe(form) {
    if (form.id !== "deal-form") return null;
    const Entry = global.SchreiberEntry, d = form.dataset, parts = [];
    if (d.describe) {
      parts.push(Entry.fill(d.describe, { declarer: Entry.picked(form, "declarer"),
                                          bid: Entry.picked(form, "bid"), trump: Entry.picked(form, "trump") }));
    }
    if (d.describeKnocked && form.querySelector("input[name=knocked]:checked")) parts.push(d.describeKnocked);
    const counts = Entry.describeCounts(form);
    if (counts) parts.push(counts);
    return parts.join(" · ");
  }

  // The Referee link (templates/scorepad/_referee_link.html) carries the trump the deal
  // form has chosen, so that the Referee page opens with it: ?trump=hearts.
  function carryTrump(link) {
    const trump = document.querySelector("#deal-form input[name=trump]:checked");
    if (!trump) return;
    const url = new URL(link.href, document.baseURI);
    url.searchParams.set("trump", trump.value);
    link.href = url.pathname + url.search;
  }

  const hooks = {
    counted: splitOffer,
    describe: describe,
    click: function (target, form) {
      const split = target.closest("button[data-split]");
      if (split && form) { applySplit(split, form); return true; }
      const referee = target.closest("a[data-referee-link]");
      if (referee) carryTrump(referee);
      return false;
    },
  };

  if (global.SchreiberEntry) global.SchreiberEntry.hook(hooks);
  if (global.SchreiberScorer) {
    global.SchreiberScorer.register(NAME, { formDeal: formDeal, showBoard: showBoard, showForm: showForm,
                                            factorsText: factorsText, change: change });
  }
})(typeof self !== "undefined" ? self : globalThis);
