// The deals kept on the phone (entry.js names the deal form's scripts): the "Not sent yet"
// list under the form, what a deal whose number another phone took would score now (with
// "Record as deal N" and "Discard"), a kept deal brought back into the form to be
// corrected, and sending them (outbox.js) when the network is back, in order.
(function () {
  "use strict";
  const E = window.SchreiberEntry;
  const Outbox = function () { return window.SchreiberOutbox; };

  // --- the outbox on screen ---------------------------------------------------------------
  function button(text, action, id) {
    const b = document.createElement("button");
    b.type = "button"; b.className = "small"; b.textContent = text;
    b.dataset.outboxAction = action; b.dataset.id = String(id);
    return b;
  }

  let drawn = 0;
  async function renderOutbox() {
    const box = document.getElementById("outbox");
    const session = E.sessionId();
    if (!box || !session || !Outbox()) return;
    const mine = ++drawn;
    let entries;
    try { entries = await Outbox().list(session); } catch (e) { return; }
    const t = box.dataset;
    box.hidden = entries.length === 0;
    if (entries.length) counter();
    box.querySelector(".outbox-title").textContent = t.tTitle;
    const list = box.querySelector(".outbox-list");
    const items = [];
    let held = false;
    // From a deal whose number another phone took on, each deal is named by the number it
    // gets when its owner records it (one number on the whole screen); until that tap it
    // keeps the number it was saved with, which the server refuses.
    let shift = null;
    for (const e of entries) {
      if (!held && shift === null && e.status === "refused" && e.kind === "conflict" && e.next) {
        shift = e.next - e.number;
        E.remember(session, e.next, true);   // the server said so: after a discard, the form's number
      }
      const shown = e.number + (shift || 0);
      const li = document.createElement("li");
      li.dataset.number = String(shown);
      const head = document.createElement("div");
      const strong = document.createElement("strong");
      strong.textContent = E.fill(t.tDeal, { n: shown });
      head.append(strong);
      if (e.label) head.append(" · " + e.label);
      const status = document.createElement("div");
      if (!held && e.status === "refused" && e.kind === "conflict" && e.next) {
        li.className = "conflict";
        status.className = "refused";
        await explain(status, e, t);
        held = true;
      } else if (e.status === "refused" || e.status === "editing") {
        status.className = "refused";
        status.textContent = t.tRefused + " " + (e.reason || "");
        if (!held) {
          const actions = document.createElement("div");
          actions.className = "row";
          if (e.form === "deal-form" && document.querySelector("form#deal-form[data-entry]:not([data-correcting])")) actions.append(button(t.tEdit, "edit", e.id));
          actions.append(button(t.tDiscard, "discard", e.id));
          status.append(actions);
        }
        held = true;
      } else {
        status.className = "muted";
        status.textContent = e.kind === "login" ? t.tLogin : (e.status === "sending" ? t.tSending : t.tWaiting);
      }
      li.append(head, status);
      items.push(li);
    }
    if (mine !== drawn) return;   // a newer drawing of the list is on its way
    list.replaceChildren.apply(list, items);
    const e = document.getElementById("entry");
    let next = parseInt(e.dataset.serverNext || "0", 10);
    entries.forEach(function (x) { if (x.number >= next) next = x.number + 1; });
    if (shift) next = Math.max(next, entries[entries.length - 1].number + shift + 1);
    if (next > 0) E.setNumber(next);
  }

  // --- a deal whose number another phone took: what happened, and what it would score ---
  function signed(n) { return n > 0 ? "+" + n : (n < 0 ? "\u2212" + (-n) : "0"); }
  let asked = 0;
  function refreshBoard() {   // at most once a second: the answer redraws the list
    const board = document.getElementById("scoreboard");
    if (!board || !window.htmx || Date.now() - asked < 1000) return;
    asked = Date.now();
    window.htmx.trigger(board, "schreiber:refresh");
  }

  // The deals recorded meanwhile (as the server names them), and what this deal would
  // score as the next one where the server now stands (provisional.js counts it with the
  // game's scorer; the multiplier it gets, each player's points and what this phone
  // showed before), next to "Record as deal N" and "Discard". Nothing is recorded
  // before that tap; the tap records only what is shown (outboxAction, "record").
  async function explain(status, e, t) {
    const n = e.next;
    const lead = document.createElement("p");
    const meanwhile = e.meanwhile || [];
    lead.textContent = meanwhile.length ? t.tMeanwhile : (e.reason ? t.tRefused + " " + e.reason : t.tRecheck);
    status.append(lead);
    if (meanwhile.length) {
      const ul = document.createElement("ul");
      ul.className = "meanwhile";
      meanwhile.forEach(function (d) {
        const item = document.createElement("li");
        item.textContent = E.fill(t.tDeal, { n: d.number }) + (d.text ? " · " + d.text : "");
        ul.append(item);
      });
      status.append(ul);
    }
    const would = document.createElement("p");
    would.className = "would";
    status.append(would);
    const actions = document.createElement("div");
    actions.className = "row";
    const provisional = window.SchreiberProvisional;
    let r = null;
    try { r = provisional && provisional.wouldScore ? await provisional.wouldScore(e.body, n) : null; } catch (err) { r = null; }
    if (r && r.at !== n) {
      if (r.at > n && navigator.onLine) {   // the server moved on again: ask it once more
        Outbox().update(e.id, { status: "waiting" }).then(function () { flushSoon(); });
      } else {
        refreshBoard();                       // the board is not there yet
      }
      would.textContent = t.tCounting;
    } else if (r && r.refused) {
      would.textContent = E.fill(t.tWouldRefuse, { n: n });
      if (e.form === "deal-form" && document.querySelector("form#deal-form[data-entry]:not([data-correcting])")) actions.append(button(t.tEdit, "edit", e.id));
    } else {
      if (r) {
        let was = {};
        try { was = e.counted ? JSON.parse(e.counted) : {}; } catch (err) { was = {}; }
        would.append(E.fill(t.tWould, { n: n }) + " " + (r.note ? r.note + " · " : ""));
        r.players.forEach(function (p, k) {
          const points = r.points[p] || 0, now = signed(points);
          const span = document.createElement("span");
          span.className = "points";
          span.dataset.player = p;
          span.dataset.points = String(points);
          span.textContent = !(p in was) || was[p] === points ? p + " " + now
            : E.fill(t.tInstead, { player: p, now: now, was: signed(was[p]) });
          if (k) would.append(", ");
          would.append(span);
        });
      } else {
        would.remove();
      }
      const record = button(E.fill(t.tRecord, { n: n }), "record", e.id);
      record.classList.add("primary");
      record.dataset.n = String(n);
      record.dataset.state = r ? r.state : "";
      actions.append(record);
    }
    actions.append(button(t.tDiscard, "discard", e.id));
    status.append(actions);
  }

  // The server's scoreboard now (data-scorer), asked for at the tap; null without one.
  async function serverState() {
    const board = document.getElementById("scoreboard");
    const url = board && board.getAttribute("hx-get");
    if (!url) return null;
    try {
      const response = await fetch(url, { headers: { "HX-Request": "true" }, cache: "no-cache",
                                          credentials: "same-origin" });
      if (!response.ok) return null;
      const fresh = E.parse(await response.text()).getElementById("scoreboard");
      return fresh ? fresh.getAttribute("data-scorer") : null;
    } catch (err) { return null; }
  }

  async function outboxAction(b) {
    const id = parseInt(b.dataset.id, 10);
    const entry = await Outbox().get(id);
    if (!entry) return renderOutbox();
    const t = E.texts();
    if (b.dataset.outboxAction === "discard") {
      if (!window.confirm(t.tDiscardConfirm)) return;
      const all = await Outbox().list(entry.session);
      const after = all.filter(function (x) { return x.number > entry.number; });
      await Outbox().remove(id);
      if (after.length) await Outbox().renumber(entry.session, after[0].id, entry.number);
      const deal = document.getElementById("deal-form");
      if (deal && deal.dataset.replaces === String(id)) E.fresh(deal);
    } else if (b.dataset.outboxAction === "record") {
      // exactly what was shown: the server still stands where it was counted from, or the
      // list shows the new figures instead of recording
      const n = parseInt(b.dataset.n, 10);
      if (b.dataset.state) {
        b.disabled = true;
        const now = await serverState();
        if (now !== b.dataset.state) { asked = 0; refreshBoard(); return renderOutbox(); }
      }
      E.remember(entry.session, n);
      await Outbox().renumber(entry.session, id, n, true);
    } else if (b.dataset.outboxAction === "edit") {
      const deal = document.getElementById("deal-form");
      await Outbox().update(id, { status: "editing" });
      loadInto(deal, new URLSearchParams(entry.body));
      deal.dataset.replaces = String(id);
      deal.scrollIntoView({ block: "start" });
    }
    await renderOutbox();
    flushSoon();
  }

  function loadInto(form, params) {
    form.reset();
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.name === "csrfmiddlewaretoken" || el.name === "idempotency_key") return;
      const values = params.getAll(el.name);
      if (el.type === "radio" || el.type === "checkbox") el.checked = values.indexOf(el.value) >= 0;
      else if (el.tagName === "SELECT" || (el.tagName === "INPUT" && el.type !== "submit" && el.type !== "button")) {
        el.value = values.length ? values[0] : "";
      }
    });
    form.querySelectorAll("input[type=number]").forEach(E.validate);
    E.local(form);
    form.dispatchEvent(new CustomEvent("schreiber:loaded", { bubbles: true }));
    E.check(form);
  }

  // --- sending the outbox -----------------------------------------------------------------
  let flushTimer = null;
  let retryTimer = null;
  function flushSoon(delay) {
    if (!Outbox()) return;
    clearTimeout(flushTimer);
    flushTimer = setTimeout(flush, delay == null ? 30 : delay);
  }
  async function flush() {
    clearTimeout(retryTimer);
    if (!navigator.onLine) return;
    online();
    const session = E.sessionId();
    let before = [];
    if (session) before = await Outbox().list(session);
    let sent = 0;
    try { sent = await Outbox().flush({ token: E.token() }); } catch (e) { sent = 0; }
    if (session) {
      const after = await Outbox().list(session);
      before.forEach(function (x) {
        if (!after.some(function (y) { return y.id === x.id; })) E.remember(session, x.number + 1, true);
      });
      await renderOutbox();
      if (after.some(function (x) { return x.status === "waiting" || x.status === "sending"; })) {
        retryTimer = setTimeout(flush, 5000);
      }
    }
    if (sent > 0) {   // the new board, and with it the offline copy (schreiber.js)
      const board = document.getElementById("scoreboard");
      if (board && window.htmx) window.htmx.trigger(board, "schreiber:refresh");
    }
  }

  // The open form's "recorded on another phone?" poll asks about the number it shows, and
  // waits while deals of this phone are still on their way.
  document.addEventListener("htmx:configRequest", function (evt) {
    const elt = evt.detail.elt;
    if (!elt || elt.id !== "stale-notice") return;
    const form = elt.closest("form");
    const number = form && form.querySelector("input[name=number]");
    const box = document.getElementById("outbox");
    if (!navigator.onLine || (box && !box.hidden)) { evt.preventDefault(); return; }
    if (number) evt.detail.path = evt.detail.path.replace(/number=\d+/, "number=" + number.value);
  });

  if (Outbox() && Outbox().channel) {
    Outbox().channel.addEventListener("message", function () { renderOutbox(); });
  }
  // The network is back: the form's "offline" hints are no longer true.
  function online() {
    const deal = document.getElementById("deal-form");
    const hints = deal && deal.tagName === "FORM" ? deal.querySelector("#hints") : null;
    const t = E.texts();
    if (!hints) return;
    const said = hints.textContent.trim();
    if (said === t.tOffline) hints.textContent = "";
    if (said === t.tNocheck) { hints.textContent = ""; E.schedule(deal, 0); }   // the referee is back
  }
  window.addEventListener("online", function () { online(); flushSoon(); });
  // A new board from the server: a deal whose number was taken is counted on it again.
  document.addEventListener("schreiber:board", function () {
    if (document.querySelector("#outbox li.conflict")) renderOutbox();
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") flushSoon();
  });

  document.addEventListener("click", function (evt) {
    const action = evt.target.closest("button[data-outbox-action]");
    if (action) { evt.preventDefault(); outboxAction(action); }
  });

  // The phone's scorer (provisional.js, which loads the game's scripts): when this phone
  // starts to enter a deal (its first tap or key on the entry panel), so that its Save is
  // counted at once, or holds deals of this session not sent yet; never for a page only
  // looked at.
  // → a promise of window.SchreiberProvisional (null: this page counts nothing, or it
  // could not be loaded).
  let counting = null;
  function counter() {
    const box = document.getElementById("provisional");
    if (window.SchreiberProvisional) return Promise.resolve(window.SchreiberProvisional);
    if (!box || !box.dataset.counter) return Promise.resolve(null);
    if (!counting) {
      counting = new Promise(function (resolve) {
        const script = document.createElement("script");
        script.src = box.dataset.counter;
        script.onload = function () {
          resolve(window.SchreiberProvisional || null);
          // a deal another phone's took: what it would score now
          if (document.querySelector("#outbox li.conflict")) renderOutbox();
        };
        script.onerror = function () { counting = null; script.remove(); resolve(null); };
        document.head.append(script);
      });
    }
    return counting;
  }
  E.firsts.push(counter);

  E.inits.push(function () { renderOutbox(); });
  document.addEventListener("DOMContentLoaded", function () { flushSoon(300); });
  Object.assign(E, { render: renderOutbox, flush: flush, flushSoon: flushSoon, counter: counter });
})();
