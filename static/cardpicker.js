// The card picker (templates/scorepad/_card_picker.html): the pack as a grid, one tap per
// card. It fills the form's select[data-card-slot] fields (what a plain form post sends
// without JavaScript) in playing order: a tap on a card fills the active slot and moves on
// to the next empty one; a tap on a slot makes it the active one. With data-unique, cards
// already in another slot are greyed out. In a trick-by-trick form ([data-trick] with
// input[data-leader] radios) the rows follow the leader and a trick's cards wait for its
// leader. With the form's data-trick-ranks (the ranks from high to low, generated from the
// referee: the best card of the suit led takes the trick, no trumps) the next trick's
// leader is the winner of the trick before, chosen the moment its last card is tapped;
// the referee's live check confirms it later.
//
// The number pad ([data-number-pad]) does the same for counts: it fills the form's
// input[data-pad] fields in order, one tap a number; a tap on a field makes it the active
// one. Fields the form fills in itself (a placeholder: the last player's tricks from the
// remainder) are skipped; a field can offer only the numbers another field's value allows
// (data-pad-range-by, the pad's data-pad-ranges). Without JavaScript the fields are typed in.
(function () {
  "use strict";
  const chosen = new WeakMap();      // form -> the slot tapped by hand
  const lastTrick = new WeakMap();   // form -> the trick the picker was in

  function fill(text, values) {
    return String(text || "").replace(/\{(\w+)\}/g, function (m, k) { return k in values ? values[k] : m; });
  }
  function slots(form) { return Array.prototype.slice.call(form.querySelectorAll("select[data-card-slot]")); }
  function tricks(form) { return Array.prototype.slice.call(form.querySelectorAll("[data-trick]")); }
  function pickerOf(form) { return form.querySelector("[data-card-picker]"); }
  function slotButton(select) { return document.getElementById("slot-" + select.id); }
  function cardLabel(select) {
    const option = select.options[select.selectedIndex];
    return option && option.value ? option.textContent.trim() : "—";
  }

  function leaderOf(trick) {
    const radio = trick.querySelector("input[data-leader]:checked");
    return radio ? parseInt(radio.value, 10) : null;
  }

  // Which play takes a trick: the cards' codes in playing order and the ranks from high to
  // low; the best card of the suit led wins, no trumps. -1 for a card of no known rank.
  function trickWinner(ranks, codes) {
    const plays = codes.map(function (code) {
      const cut = String(code || "").indexOf("-");
      return { suit: cut > 0 ? code.slice(0, cut) : "", rank: cut > 0 ? ranks.indexOf(code.slice(cut + 1)) : -1 };
    });
    if (!plays.length || plays.some(function (p) { return p.rank < 0; })) return -1;
    let best = 0;
    plays.forEach(function (p, k) { if (p.suit === plays[0].suit && p.rank < plays[best].rank) best = k; });
    return best;
  }

  // The seat that takes a complete trick, or null (a card missing, no rule given).
  function winnerSeat(form, trick) {
    const ranks = (form.dataset.trickRanks || "").split(" ").filter(Boolean);
    const leader = leaderOf(trick);
    if (!ranks.length || leader === null) return null;
    const plays = Array.prototype.slice.call(trick.querySelectorAll("select[data-card-slot]"))
      .map(function (s) {
        const row = s.closest("[data-seat]");
        return { seat: row ? +row.dataset.seat : NaN, code: s.value };
      });
    const n = plays.length;
    if (plays.some(function (p) { return !p.code || Number.isNaN(p.seat); })) return null;
    plays.sort(function (a, b) { return ((a.seat - leader + n) % n) - ((b.seat - leader + n) % n); });
    const k = trickWinner(ranks, plays.map(function (p) { return p.code; }));
    return k < 0 ? null : plays[k].seat;
  }

  // Each trick after a complete one is led by its winner, unless a leader was chosen by
  // hand; a leader chosen here follows the trick before when its cards change.
  function leadNext(form) {
    const all = tricks(form);
    for (let k = 0; k + 1 < all.length; k += 1) {
      const after = all[k + 1];
      const current = leaderOf(after);
      if (current !== null && !after.hasAttribute("data-auto-leader")) continue;
      const seat = winnerSeat(form, all[k]);
      if (seat === null || seat === current) continue;
      const radio = after.querySelector('input[data-leader][value="' + seat + '"]');
      if (!radio) continue;
      radio.checked = true;
      after.setAttribute("data-auto-leader", "");
      radio.dispatchEvent(new Event("change", { bubbles: true }));   // the live check hears it
    }
  }

  // The rows of a trick in playing order, from its leader on.
  function reorder(trick) {
    const leader = leaderOf(trick);
    const holder = trick.querySelector(".card-rows");
    if (leader === null || !holder) return;
    const rows = Array.prototype.slice.call(holder.querySelectorAll(".card-row"));
    const n = rows.length;
    rows.sort(function (a, b) {
      return ((+a.dataset.seat - leader + n) % n) - ((+b.dataset.seat - leader + n) % n);
    });
    rows.forEach(function (row) { holder.appendChild(row); });
  }

  // What the next tap fills: a slot, or (a trick without its leader yet) the leader.
  function next(form) {
    const hand = chosen.get(form);
    if (hand && form.contains(hand)) return { select: hand };
    const all = tricks(form);
    if (!all.length) {
      const empty = slots(form).find(function (s) { return !s.value; });
      return empty ? { select: empty } : null;
    }
    for (const trick of all) {
      const open = Array.prototype.slice.call(trick.querySelectorAll("select[data-card-slot]"))
        .filter(function (s) { return !s.value; });
      if (!open.length) continue;
      if (leaderOf(trick) === null) return { lead: trick };
      return { select: open[0] };
    }
    return null;
  }

  function refresh(form) {
    const picker = pickerOf(form);
    if (!picker || !picker.dataset.ready) return;
    const target = next(form);
    const select = target && target.select;
    slots(form).forEach(function (s) {
      const button = slotButton(s);
      if (!button) return;
      button.textContent = cardLabel(s);
      button.setAttribute("aria-label", (s.dataset.player || "") + ": " + cardLabel(s));
      button.classList.toggle("empty", !s.value);
      button.classList.toggle("active", s === select);
      button.setAttribute("aria-pressed", s === select ? "true" : "false");
    });
    const used = {};
    if (picker.hasAttribute("data-unique")) {
      slots(form).forEach(function (s) { if (s !== select && s.value) used[s.value] = true; });
    }
    picker.querySelectorAll("button[data-card]").forEach(function (b) {
      const code = b.dataset.card;
      if (!code) { b.disabled = !select || !select.value; return; }
      b.classList.toggle("played", !!used[code]);
      b.classList.toggle("chosen", !!select && select.value === code);
      b.disabled = !select || !!used[code];
    });
    const label = picker.querySelector("[data-picker-for]");
    if (label) {
      label.textContent = target && target.lead ? picker.dataset.leadText
        : select ? fill(picker.dataset.forText, { player: select.dataset.player || "" }) : "";
    }
    // The picker sits in the trick being played; tricks done before it close.
    const trick = (select && select.closest("[data-trick]")) || (target && target.lead) || null;
    if (trick) {
      const rows = trick.querySelector(".card-rows");
      if (rows && picker.previousElementSibling !== rows) rows.after(picker);
      trick.open = true;
      const before = lastTrick.get(form);
      if (before && before !== trick && !chosen.get(form)) {
        tricks(form).forEach(function (t) {
          if (+t.dataset.trick < +trick.dataset.trick && !t.classList.contains("has-error")) t.open = false;
        });
      }
      lastTrick.set(form, trick);
      if (before && before !== trick) show(trick);
    }
    picker.hidden = !target;
  }

  // A trick begun is scrolled to the top of the screen, its picker under it: the next
  // four taps need no scrolling.
  function show(trick) {
    const box = trick.getBoundingClientRect();
    const bar = trick.closest("form").querySelector(".actions");
    const bottom = window.innerHeight - (bar ? bar.getBoundingClientRect().height : 0);
    if (box.top < 0 || box.bottom > bottom) trick.scrollIntoView({ block: "start" });
  }

  function enhance(picker) {
    const form = picker.closest("form");
    if (!form || picker.dataset.ready) return;
    picker.dataset.ready = "1";
    slots(form).forEach(function (select) {
      if (slotButton(select)) return;
      select.classList.add("enhanced");
      select.tabIndex = -1;
      select.setAttribute("aria-hidden", "true");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "slot";
      button.id = "slot-" + select.id;
      button.dataset.slotFor = select.id;
      select.after(button);
      const label = form.querySelector('label[for="' + select.id + '"]');
      if (label) label.htmlFor = button.id;
    });
    tricks(form).forEach(reorder);
    refresh(form);
  }

  // --- the number pad -------------------------------------------------------------------
  const padChosen = new WeakMap();   // form -> the field tapped by hand
  function padOf(form) { return form ? form.querySelector("[data-number-pad]") : null; }
  function padFields(form) { return Array.prototype.slice.call(form.querySelectorAll("input[data-pad]")); }
  function padTarget(form) {
    const hand = padChosen.get(form);
    if (hand && form.contains(hand) && !hand.disabled) return hand;
    return padFields(form).find(function (f) {
      return !f.disabled && f.value === "" && f.placeholder === "";
    }) || null;
  }
  // A field whose numbers depend on another field's (data-pad-range-by): the pad's
  // data-pad-ranges maps that field's value (typed, or filled in by the form) to [min, max].
  function padRange(pad, field) {
    const by = field.dataset.padRangeBy && field.form.elements[field.dataset.padRangeBy];
    if (!by) return null;
    let ranges;
    try { ranges = JSON.parse(pad.dataset.padRanges || "{}"); } catch (e) { return null; }
    const range = ranges[by.value.trim() || by.placeholder];
    return Array.isArray(range) ? range : null;
  }
  function padRefresh(form) {
    const pad = padOf(form);
    if (!pad || !pad.dataset.ready) return;
    const target = padTarget(form);
    padFields(form).forEach(function (f) { f.classList.toggle("pad-active", f === target); });
    let max = target && target.max !== "" ? +target.max : Infinity;
    let min = target && target.min !== "" ? +target.min : 0;
    const range = target && padRange(pad, target);
    if (range) { min = range[0]; max = range[1]; }
    pad.querySelectorAll("button[data-number]").forEach(function (b) {
      const n = +b.dataset.number;
      b.hidden = n > max || n < min;
      b.classList.toggle("chosen", !!target && target.value !== "" && +target.value === n);
    });
    const label = pad.querySelector("[data-pad-for]");
    if (label) label.textContent = target ? target.getAttribute("aria-label") || "" : "";
    pad.hidden = !target;
  }
  function padEnhance(pad) {
    const form = pad.closest("form");
    if (!form || pad.dataset.ready) return;
    pad.dataset.ready = "1";
    form.classList.add("pad-ready");
    padFields(form).forEach(function (f) { f.setAttribute("inputmode", "none"); });
    padRefresh(form);
  }
  function padTap(button) {
    const form = button.closest("form");
    const target = padTarget(form);
    if (!target) return;
    target.value = button.dataset.number;
    padChosen.delete(form);
    target.dispatchEvent(new Event("input", { bubbles: true }));   // entry.js: remainder, check
    padRefresh(form);
  }

  function init(root) {
    root.querySelectorAll("[data-card-picker]").forEach(enhance);
    root.querySelectorAll("[data-number-pad]").forEach(padEnhance);
  }

  document.addEventListener("click", function (evt) {
    const number = evt.target.closest("[data-number-pad] button[data-number]");
    if (number) { padTap(number); return; }
    const slot = evt.target.closest("button[data-slot-for]");
    if (slot) {
      const form = slot.closest("form");
      chosen.set(form, document.getElementById(slot.dataset.slotFor));
      refresh(form);
      return;
    }
    const card = evt.target.closest("[data-card-picker] button[data-card]");
    if (!card) return;
    const form = card.closest("form");
    const target = next(form);
    if (!target || !target.select) return;
    target.select.value = card.dataset.card;
    target.select.dispatchEvent(new Event("change", { bubbles: true }));
    if (card.dataset.card) chosen.delete(form);
    leadNext(form);
    refresh(form);
  });
  document.addEventListener("change", function (evt) {
    const radio = evt.target.closest && evt.target.closest("input[data-leader]");
    if (!radio) return;
    const trick = radio.closest("[data-trick]");
    if (evt.isTrusted) trick.removeAttribute("data-auto-leader");   // chosen by hand: kept
    reorder(trick);
    refresh(radio.form);
  });
  document.addEventListener("focusin", function (evt) {
    const field = evt.target.closest && evt.target.closest("input[data-pad]");
    if (!field || !padOf(field.form) || !padOf(field.form).dataset.ready) return;
    padChosen.set(field.form, field);
    padRefresh(field.form);
  });
  document.addEventListener("input", function (evt) {
    const form = evt.target.form;
    if (form && evt.target.matches("input[data-pad]")) padRefresh(form);
  });
  ["schreiber:suggested", "schreiber:cleared", "schreiber:loaded"].forEach(function (name) {
    document.addEventListener(name, function (evt) {
      const form = evt.target.closest ? evt.target.closest("form") || evt.target : null;
      if (!form) return;
      if (padOf(form)) { padChosen.delete(form); padRefresh(form); }
      if (!pickerOf(form)) return;
      chosen.delete(form);
      if (name !== "schreiber:suggested") {   // a new or reloaded form: its leaders are its own
        tricks(form).forEach(function (t) { t.removeAttribute("data-auto-leader"); });
      }
      tricks(form).forEach(reorder);
      refresh(form);
    });
  });
  document.addEventListener("schreiber:swapped", function (evt) { init(evt.target); });
  window.SchreiberCards = { trickWinner: trickWinner };   // for the tests: same as the referee's
  document.addEventListener("DOMContentLoaded", function () {
    init(document);
    // A page opened card by card starts at the trick being entered.
    document.querySelectorAll("[data-card-picker][data-ready]").forEach(function (picker) {
      const trick = picker.closest("[data-trick]");
      if (trick && !picker.hidden) show(trick);
    });
  });
})();
