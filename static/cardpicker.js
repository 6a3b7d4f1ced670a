// The card picker (templates/scorepad/_card_picker.html): the pack as a grid, one tap per
// card. It fills the form's select[data-card-slot] fields (what a plain form post sends
// without JavaScript) in playing order: a tap on a card fills the active slot and moves on
// to the next empty one; a tap on a slot makes it the active one. With data-unique, cards
// already in another slot are greyed out. In a trick-by-trick form ([data-trick] with
// input[data-leader] radios) the rows follow the leader and a trick's cards wait for its
// leader (the referee fills it in from the trick before).
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
    }
    picker.hidden = !target;
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

  function init(root) {
    root.querySelectorAll("[data-card-picker]").forEach(enhance);
  }

  document.addEventListener("click", function (evt) {
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
    refresh(form);
  });
  document.addEventListener("change", function (evt) {
    const radio = evt.target.closest && evt.target.closest("input[data-leader]");
    if (!radio) return;
    reorder(radio.closest("[data-trick]"));
    refresh(radio.form);
  });
  ["schreiber:suggested", "schreiber:cleared", "schreiber:loaded"].forEach(function (name) {
    document.addEventListener(name, function (evt) {
      const form = evt.target.closest ? evt.target.closest("form") || evt.target : null;
      if (!form || !pickerOf(form)) return;
      chosen.delete(form);
      tricks(form).forEach(reorder);
      refresh(form);
    });
  });
  document.addEventListener("schreiber:swapped", function (evt) { init(evt.target); });
  document.addEventListener("DOMContentLoaded", function () { init(document); });
})();
