// The deal being entered lives in the phone. Chips, steppers and typed numbers change at
// once, without a round trip; the referee's live check runs in the background (debounced,
// the latest wins) and only updates the messages and the preview, never what was tapped.
// Save sends the deal and swaps in the new scores and a fresh form (one answer); without a
// network the deal waits in the outbox (outbox.js) and is sent when the network is back.
// Without this script every form still works as a plain form post.
(function () {
  "use strict";
  const DEBOUNCE = 150;
  const parser = new DOMParser();
  const states = new WeakMap();
  const Outbox = function () { return window.SchreiberOutbox; };

  function token() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["x-csrftoken"] || ""; }
    catch (e) { return ""; }
  }
  function headers(target) {
    return { "HX-Request": "true", "HX-Target": target, "X-CSRFToken": token() };
  }
  function fill(text, values) {
    return String(text || "").replace(/\{(\w+)\}/g, function (m, k) { return k in values ? values[k] : m; });
  }
  function parse(html) { return parser.parseFromString(html, "text/html"); }
  function events(response) {
    try { return JSON.parse(response.headers.get("HX-Trigger") || "{}"); } catch (e) { return {}; }
  }
  function state(form) {
    let s = states.get(form);
    if (!s) { s = { seq: 0, timer: null, controller: null, dirty: false }; states.set(form, s); }
    return s;
  }
  function byId(root, id) { return root.querySelector("#" + CSS.escape(id)); }

  // --- counts: stay-home toggles, the last player filled from the remainder -------------
  function intOf(input) {
    if (!input) return null;
    if (input.validity && input.validity.badInput) return NaN;
    const v = input.value.trim();
    if (v === "") return null;
    return /^\d+$/.test(v) ? parseInt(v, 10) : NaN;
  }
  function shown(input) {
    const v = intOf(input);
    if (v !== null) return v;
    return input && input.placeholder !== "" ? parseInt(input.placeholder, 10) : null;
  }
  function rowsOf(form) { return Array.prototype.slice.call(form.querySelectorAll("[data-row]")); }
  function countIn(row, kind) { return row.querySelector('input[data-count="' + kind + '"]'); }

  function local(form) {
    const group = form.querySelector("[data-sum]");
    if (!group) return;
    const total = parseInt(group.dataset.sum, 10);
    const rows = rowsOf(form);
    rows.forEach(function (row) {
      const home = row.querySelector("[data-home]");
      const away = !!(home && home.checked);
      row.classList.toggle("home", away);
      row.querySelectorAll("input[data-count], button[data-step]").forEach(function (el) { el.disabled = away; });
    });
    const playing = rows.filter(function (row) { return !row.classList.contains("home"); });
    const inputs = playing.map(function (row) { return countIn(row, "tricks"); });
    const values = inputs.map(intOf);
    const bad = values.some(function (v) { return Number.isNaN(v); });
    let sum = 0;
    values.forEach(function (v) { if (v !== null && !Number.isNaN(v)) sum += v; });
    const blanks = inputs.filter(function (input, k) { return values[k] === null; });
    rows.forEach(function (row) { const i = countIn(row, "tricks"); if (i) i.placeholder = ""; });
    let auto = 0;
    if (!bad && blanks.length === 1 && sum <= total) {
      auto = total - sum;
      blanks[0].placeholder = String(auto);
    } else if (!bad && blanks.length > 1 && sum === total) {
      blanks.forEach(function (i) { i.placeholder = "0"; });
    }
    rows.forEach(function (row) {   // a row that counts figures too: no trick, no figure
      const figures = countIn(row, "figures");
      if (!figures) return;
      figures.placeholder = shown(countIn(row, "tricks")) === 0 && intOf(figures) === null ? "0" : "";
    });
    const left = form.querySelector("#tricks-left");
    if (left && group.dataset.leftText && !bad) {
      const over = sum > total && group.dataset.overText;
      left.textContent = "(" + fill(over ? group.dataset.overText : group.dataset.leftText,
                                    { n: over ? sum - total : total - sum - auto }) + ")";
      left.classList.toggle("over", !!over);
    }
    // "+" stays open when the tricks are all given: correcting a count is "+" here and
    // "−" there, in either order; more than the deal has is said in the legend (and by
    // the referee) until it adds up again
    rows.forEach(function (row) {
      row.querySelectorAll('button[data-step="+1"]').forEach(function (b) {
        if (b.dataset.for.indexOf("t_") === 0) b.disabled = row.classList.contains("home");
      });
    });
    splitOffer(form, group, playing, total);
  }

  // One tap for the common split: the declarer made the bid exactly, everybody else 1.
  function splitOffer(form, group, playing, total) {
    const button = form.querySelector("[data-split]");
    if (!button) return;
    const declarer = form.querySelector("input[name=declarer]:checked");
    const bid = form.querySelector("input[name=bid]:checked");
    const row = declarer && playing.find(function (r) { return r.dataset.player === declarer.value; });
    button.hidden = true;
    if (!row || !bid) return;
    const b = parseInt(bid.value, 10);
    const others = playing.filter(function (r) { return r !== row; });
    let text = group.dataset.madeText, each = null;
    if (b === total) { text = group.dataset.muliText; each = 0; }
    else if (total - b === others.length) { text = group.dataset.splitText; each = 1; }
    const label = form.querySelector('label[for="' + bid.id + '"]');
    button.textContent = fill(text, { player: declarer.value, bid: label ? label.textContent.trim() : b });
    button.dataset.plan = JSON.stringify({ player: declarer.value, bid: b, each: each });
    button.hidden = false;
  }

  function applySplit(button) {
    const form = button.form;
    const plan = JSON.parse(button.dataset.plan || "{}");
    rowsOf(form).forEach(function (row) {
      if (row.classList.contains("home")) return;
      const input = countIn(row, "tricks");
      if (row.dataset.player === plan.player) input.value = String(plan.bid);
      else if (plan.each !== null) input.value = String(plan.each);
      validate(input);
    });
    changed(form);
  }

  function step(button) {
    const form = button.form;
    const input = form.elements[button.dataset.for];
    if (!input || input.disabled) return;
    let current = shown(input);
    const delta = parseInt(button.dataset.step, 10);
    if (current === null && delta < 0) current = 1;   // "none" said with the stepper: 0
    if (current === null || Number.isNaN(current)) current = 0;
    const next = current + delta;
    if (next < 0 || (input.max !== "" && next > parseInt(input.max, 10))) return;
    input.value = String(next);
    validate(input);
    changed(form);
  }

  // A typed number out of range is named at once, next to its row.
  function validate(input) {
    if (!input || input.type !== "number") return true;
    const v = input.value.trim();
    let ok = !(input.validity && input.validity.badInput);
    if (ok && v !== "") {
      ok = /^\d+$/.test(v) && (input.min === "" || +v >= +input.min) && (input.max === "" || +v <= +input.max);
    }
    input.setAttribute("aria-invalid", ok ? "false" : "true");
    const holder = input.closest("[data-row], .exchange-row");
    const slot = holder && holder.querySelector("[data-local-error]");
    if (slot) { slot.textContent = ok ? "" : (input.dataset.bad || ""); slot.hidden = ok; }
    return ok;
  }

  // --- the live check -------------------------------------------------------------------
  function changed(form) { local(form); schedule(form); }

  function schedule(form, delay) {
    const s = state(form);
    s.dirty = true;
    clearTimeout(s.timer);
    form.setAttribute("data-check-due", "");   // a check will start (tests wait for it)
    s.timer = setTimeout(function () { check(form); }, delay == null ? DEBOUNCE : delay);
  }

  function note(form, text) {
    const hints = form.querySelector("#hints");
    if (hints) { hints.textContent = ""; const p = document.createElement("p"); p.className = "hint"; p.textContent = text; hints.appendChild(p); }
  }
  // No referee at hand (offline): Save stays open, the deal is checked when it is sent.
  function unchecked(form) {
    note(form, texts().tNocheck || "");
    const save = form.querySelector("[data-save-button]");
    if (save) save.removeAttribute("aria-disabled");
  }
  function texts() { const box = document.getElementById("outbox"); return box ? box.dataset : {}; }

  function check(form) {
    const s = state(form);
    clearTimeout(s.timer);
    form.removeAttribute("data-check-due");
    s.dirty = false;
    s.seq += 1;
    const seq = s.seq;
    if (s.controller) s.controller.abort();
    if (!form.dataset.check) return Promise.resolve();
    if (!navigator.onLine) { unchecked(form); return Promise.resolve(); }
    const controller = new AbortController();
    s.controller = controller;
    form.classList.add("checking");
    const body = new URLSearchParams(new FormData(form));
    body.delete("step");
    return fetch(form.dataset.check, { method: "POST", body: body, headers: headers("deal-form"),
                                       credentials: "same-origin", signal: controller.signal })
      .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.text(); })
      .then(function (html) {
        if (seq !== s.seq || s.dirty) return;   // a newer state is on its way: it wins
        const fresh = parse(html).getElementById("deal-form");
        if (fresh) apply(form, fresh);
      })
      .catch(function (e) {
        if (e.name !== "AbortError" && seq === s.seq) unchecked(form);
      })
      .finally(function () { if (seq === s.seq) form.classList.remove("checking"); });
  }

  // An htmx answer that comes back to an element no longer in the page is dropped: htmx
  // swaps "out of band" parts within the requester's own tree, and a poll that came back
  // to a board already replaced by a save looked for #recent in the detached board
  // (htmx:oobErrorNoTarget). Aborting instead logs errors of its own (htmx:sendAbort).
  // The event is dispatched on the detached element, where a listener on the document
  // never hears it: elements are marked before they leave (retire), and the document
  // listener covers targets still in the page.
  function stale(e) {
    const config = e.detail && e.detail.requestConfig;
    if (config && config.elt && !config.elt.isConnected) e.preventDefault();
  }
  document.addEventListener("htmx:beforeSwap", stale);
  function retire(el) {
    if (!el) return;
    el.addEventListener("htmx:beforeSwap", stale);
    el.querySelectorAll("[hx-get], [hx-post]").forEach(function (n) {
      n.addEventListener("htmx:beforeSwap", stale);
    });
  }

  // The referee's answer: messages, preview and the leaders it filled in; never the inputs.
  function apply(form, fresh) {
    form.querySelectorAll("[data-live]").forEach(function (el) {
      const twin = byId(fresh, el.id);
      retire(el);
      el.innerHTML = twin ? twin.innerHTML : "";
      if (window.htmx && el.querySelector("[hx-get], [hx-post]")) window.htmx.process(el);
    });
    form.querySelectorAll("[data-live-attrs]").forEach(function (el) {
      const twin = byId(fresh, el.id);
      if (!twin) return;
      el.dataset.liveAttrs.split(" ").forEach(function (attr) {
        if (attr === "open-if-set") { if (twin.hasAttribute("open")) el.open = true; return; }
        if (twin.hasAttribute(attr)) el.setAttribute(attr, twin.getAttribute(attr));
        else el.removeAttribute(attr);
      });
    });
    let suggested = false;
    const names = [];
    form.querySelectorAll("input[type=radio][data-suggest]").forEach(function (r) {
      if (names.indexOf(r.name) < 0) names.push(r.name);
    });
    names.forEach(function (name) {
      if (form.querySelector('input[name="' + name + '"]:checked')) return;
      const twin = fresh.querySelector('input[name="' + name + '"]:checked');
      const mine = twin && byId(form, twin.id);
      if (mine) { mine.checked = true; suggested = true; }
    });
    local(form);
    if (suggested) form.dispatchEvent(new CustomEvent("schreiber:suggested", { bubbles: true }));
  }

  // --- saving ---------------------------------------------------------------------------
  function entryEl() { return document.getElementById("entry"); }
  function sessionId() { const e = entryEl(); return e ? e.dataset.session : null; }

  // A deal kept on the phone, in words for the "Not sent yet" list: who, what and the
  // tricks by name ("Anna bids 3, trump Bells · tricks Anna 3, Bert 1, …"), from the
  // sentences the form carries (data-describe-*), never the labels of other choices.
  function describe(form, submitter) {
    if (submitter && submitter.name === "loser") {
      const box = form.closest("[data-describe-loser]");
      return box ? fill(box.dataset.describeLoser, { p: submitter.value }) : submitter.value;
    }
    if (form.id !== "deal-form") return (submitter || form.querySelector("button")).textContent.trim();
    const d = form.dataset, parts = [];
    const number = function (input) {
      const v = shown(input);
      return v === null || Number.isNaN(v) ? "?" : String(v);
    };
    const picked = function (name) {
      const r = form.querySelector('input[type=radio][name="' + name + '"]:checked');
      const label = r && form.querySelector('label[for="' + CSS.escape(r.id) + '"]');
      return label ? label.textContent.trim() : "?";
    };
    if (d.describe) parts.push(fill(d.describe, { declarer: picked("declarer"), bid: picked("bid"), trump: picked("trump") }));
    if (d.describeKnocked && form.querySelector("input[name=knocked]:checked")) parts.push(d.describeKnocked);
    const rows = rowsOf(form);
    if (d.describeTricks && rows.length) {
      parts.push(fill(d.describeTricks, { list: rows.map(function (row) {
        if (row.classList.contains("home")) return row.dataset.player + " ⌂";
        const figures = countIn(row, "figures");
        return row.dataset.player + " " + number(countIn(row, "tricks")) + (figures ? "/" + number(figures) : "");
      }).join(", ") }));
    }
    if (d.describeCards) {
      const done = Array.prototype.filter.call(form.querySelectorAll("[data-trick]"), function (trick) {
        const slots = trick.querySelectorAll("select[data-card-slot]");
        return slots.length && Array.prototype.every.call(slots, function (s) { return s.value; });
      });
      parts.push(fill(d.describeCards, { n: done.length }));
    }
    if (d.describeOrder) {
      const order = Array.prototype.map.call(form.querySelectorAll("select[name^=o_]"), function (s) { return s.value || "?"; });
      parts.push(fill(d.describeOrder, { list: order.join(" → ") }));
    }
    return parts.join(" · ");
  }

  function busy(form, on) {
    form.querySelectorAll("button[type=submit], button:not([type])").forEach(function (b) {
      if (on) { b.dataset.wasDisabled = b.disabled ? "1" : ""; b.disabled = true; }
      else if (b.dataset.wasDisabled !== undefined) { b.disabled = b.dataset.wasDisabled === "1"; delete b.dataset.wasDisabled; }
    });
    if (!on && form.id === "deal-form") local(form);
  }

  async function pendingIn(session) {
    if (!Outbox()) return 0;
    return (await Outbox().list(session)).length;
  }

  async function save(form, submitter) {
    const session = sessionId();
    const body = new URLSearchParams(new FormData(form, submitter));
    body.delete("step");
    const record = { session: session, url: form.action, number: parseInt(body.get("number"), 10) || null,
                     label: describe(form, submitter), form: form.id === "deal-form" ? "deal-form" : "" };
    record.key = Outbox() ? Outbox().newKey() : String(Date.now());
    body.set("idempotency_key", record.key);
    record.body = body.toString();
    const replaces = form.dataset.replaces ? parseInt(form.dataset.replaces, 10) : null;
    const s = state(form);
    clearTimeout(s.timer);
    form.removeAttribute("data-check-due");
    if (s.controller) s.controller.abort();
    s.seq += 1;
    // One save of a form at a time: its buttons stay disabled until this deal is sent or
    // kept on the phone, so a tap meanwhile waits for them and then takes the number after
    // this one (two quick taps offline both took the same number).
    busy(form, true);
    let held = true;
    const release = function () { if (held) { held = false; busy(form, false); } };
    try {
      return await send(form, record, body, session, replaces, release);
    } finally {
      release();
    }
  }

  // The save itself: kept behind the deals still waiting, or sent (release: the buttons
  // open again once the answer is in, before it is shown).
  async function send(form, record, body, session, replaces, release) {
    if (Outbox() && (!navigator.onLine || (await pendingIn(session)) - (replaces ? 1 : 0) > 0)) {
      if (await refusedHere(form, record)) return;
      return queue(form, record, replaces);   // keep the order: behind the deals still waiting
    }
    // counted on the board at once, marked provisional, until the answer's board replaces it
    const provisional = window.SchreiberProvisional;
    const landed = function (quiet) { if (provisional && record.number) provisional.landed(record.number, quiet); };
    if (provisional && record.number) provisional.going(record.number, record.body);
    let response;
    try {
      const sent = headers("table");
      if (document.body.dataset.account) sent["X-Schreiber-Owner"] = document.body.dataset.account;
      response = await fetch(form.action, { method: "POST", body: body, headers: sent,
                                            credentials: "same-origin" });
    } catch (e) {
      release();
      landed(!!Outbox());   // about to be kept: the outbox counts it from now on
      if (!Outbox()) return note(form, texts().tFailed || "");
      if (await refusedHere(form, record)) { landed(); return; }
      return queue(form, record, replaces);
    }
    const answer = events(response);
    let html;
    try { html = await response.text(); } catch (e) { html = ""; }
    release();
    if (!answer["schreiber:recorded"]) landed(!!(Outbox() && (response.status === 403 ||
        (response.redirected && response.url.indexOf("/login/") >= 0))));
    if (answer["schreiber:recorded"]) {
      remember(session, answer["schreiber:recorded"].number + 1);
      if (replaces && Outbox()) await Outbox().remove(replaces);
      swapTable(html);
      landed(true);   // the answer's board has it
      flushSoon();
      return;
    }
    const refused = answer["schreiber:refused"];
    if (refused && refused.kind !== "conflict" && form.id === "deal-form") {
      const fresh = parse(html).getElementById("deal-form");
      if (fresh) { apply(form, fresh); return; }
    }
    if (refused) { swapTable(html); return; }
    if (Outbox() && (response.status === 403 || (response.redirected && response.url.indexOf("/login/") >= 0))) {
      record.kind = "login";
      return queue(form, record, replaces);
    }
    note(form, texts().tFailed || "");
  }

  // A deal about to wait on the phone that breaks a rule where the session will stand
  // (the phone's scorer counts it: provisional.js) is refused at once, in the server's
  // words, next to the form, which stays as it was: nothing is kept.
  async function refusedHere(form, record) {
    const provisional = window.SchreiberProvisional;
    if (!provisional || !provisional.refusal) return false;
    let reasons;
    try { reasons = await provisional.refusal(record.body, record.number); } catch (e) { return false; }
    if (!reasons.length) return false;
    const deal = document.getElementById("deal-form");
    const shown = deal && deal.tagName === "FORM" ? deal : form;
    const hints = shown.querySelector("#hints");
    if (!hints) return false;
    hints.textContent = "";
    reasons.forEach(function (text) {
      const p = document.createElement("p");
      p.className = "error";
      p.setAttribute("role", "alert");
      p.textContent = text;
      hints.appendChild(p);
    });
    hints.scrollIntoView({ block: "nearest" });
    return true;
  }

  async function queue(form, record, replaces) {
    try {
      if (replaces) {
        await Outbox().update(replaces, { body: record.body, key: record.key, label: record.label,
                                          status: "waiting", reason: "", kind: record.kind || "" });
      } else {
        await Outbox().add(record);   // for the account logged in; none (another tab logged out): not kept
      }
    } catch (e) {
      return note(form, texts().tFailed || "");
    }
    const deal = document.getElementById("deal-form");
    if (form === deal || replaces) fresh(deal);
    await renderOutbox();
    const box = document.getElementById("outbox");
    if (deal && deal.tagName === "FORM") note(deal, box ? box.dataset.tOffline : "");
    const table = document.getElementById("table");
    if (table) table.scrollIntoView({ block: "start" });
    if (navigator.serviceWorker) {
      navigator.serviceWorker.ready.then(function (reg) {
        if (reg.sync) return reg.sync.register("schreiber-outbox");
      }).catch(function () { /* no background sync: the page sends them */ });
    }
    flushSoon();
  }

  // The deal form, empty again, for the next deal.
  function fresh(form) {
    if (!form || form.tagName !== "FORM") return;
    form.reset();
    delete form.dataset.replaces;
    form.querySelectorAll("[data-live]:not(#form-actions)").forEach(function (el) { el.innerHTML = ""; });
    form.querySelectorAll("[data-local-error]").forEach(function (el) { el.hidden = true; el.textContent = ""; });
    form.querySelectorAll("[aria-invalid]").forEach(function (el) { el.removeAttribute("aria-invalid"); });
    const save = form.querySelector("[data-save-button]");
    if (save) save.setAttribute("aria-disabled", "true");
    local(form);
    form.dispatchEvent(new CustomEvent("schreiber:cleared", { bubbles: true }));
  }

  function swapTable(html) {
    const doc = parse(html);
    const next = doc.getElementById("table");
    const current = document.getElementById("table");
    if (!next || !current) { window.location.reload(); return; }
    const table = document.importNode(next, true);
    retire(current);
    current.replaceWith(table);
    const recent = doc.getElementById("recent");
    const mine = document.getElementById("recent");
    if (recent && mine) {
      recent.removeAttribute("hx-swap-oob");
      const node = document.importNode(recent, true);
      retire(mine);
      mine.replaceWith(node);
      if (window.htmx) window.htmx.process(node);
    }
    if (window.htmx) window.htmx.process(table);
    init(table);
    table.dispatchEvent(new CustomEvent("schreiber:swapped", { bubbles: true }));
    table.scrollIntoView({ block: "start" });
    if (Outbox()) Outbox().keepPage(window.location.href, html, ["table", "recent"], true);   // the offline copy: as fresh as the screen
  }

  // --- the next deal's number: the server's, or after the deals still waiting ------------
  function stored(session) {
    try { return parseInt(localStorage.getItem("schreiber:next:" + session), 10) || 0; } catch (e) { return 0; }
  }
  // What the server said the next number is (a page it rendered, a deal it recorded); an
  // offline copy of the page may be older than that.
  function remember(session, n, atLeast) {
    const e = entryEl();
    if (atLeast) n = Math.max(n, parseInt((e && e.dataset.serverNext) || "0", 10));
    if (e && e.dataset.session === String(session)) e.dataset.serverNext = String(n);
    try { localStorage.setItem("schreiber:next:" + session, String(n)); } catch (err) { /* private mode */ }
  }
  function setNumber(n) {
    const e = entryEl();
    if (!e) return;
    const deal = document.getElementById("deal-form");
    e.querySelectorAll("input[name=number]").forEach(function (input) {
      if (deal && deal.dataset.replaces && deal.contains(input)) return;
      input.value = String(n);
    });
    e.querySelectorAll("[data-deal-title]").forEach(function (h) {
      if (deal && deal.dataset.replaces && deal.contains(h)) return;
      h.textContent = fill(h.dataset.dealTitle, { n: n });
    });
  }

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
    const session = sessionId();
    if (!box || !session || !Outbox()) return;
    const mine = ++drawn;
    let entries;
    try { entries = await Outbox().list(session); } catch (e) { return; }
    const t = box.dataset;
    box.hidden = entries.length === 0;
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
        remember(session, e.next, true);   // the server said so: after a discard, the form's number
      }
      const shown = e.number + (shift || 0);
      const li = document.createElement("li");
      li.dataset.number = String(shown);
      const head = document.createElement("div");
      const strong = document.createElement("strong");
      strong.textContent = fill(t.tDeal, { n: shown });
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
    const e = entryEl();
    let next = parseInt(e.dataset.serverNext || "0", 10);
    entries.forEach(function (x) { if (x.number >= next) next = x.number + 1; });
    if (shift) next = Math.max(next, entries[entries.length - 1].number + shift + 1);
    if (next > 0) setNumber(next);
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
        item.textContent = fill(t.tDeal, { n: d.number }) + (d.text ? " · " + d.text : "");
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
      would.textContent = fill(t.tWouldRefuse, { n: n });
      if (e.form === "deal-form" && document.querySelector("form#deal-form[data-entry]:not([data-correcting])")) actions.append(button(t.tEdit, "edit", e.id));
    } else {
      if (r) {
        let was = {};
        try { was = e.counted ? JSON.parse(e.counted) : {}; } catch (err) { was = {}; }
        would.append(fill(t.tWould, { n: n }) + " " + (r.note ? r.note + " · " : ""));
        r.players.forEach(function (p, k) {
          const points = r.points[p] || 0, now = signed(points);
          const span = document.createElement("span");
          span.className = "points";
          span.dataset.player = p;
          span.dataset.points = String(points);
          span.textContent = !(p in was) || was[p] === points ? p + " " + now
            : fill(t.tInstead, { player: p, now: now, was: signed(was[p]) });
          if (k) would.append(", ");
          would.append(span);
        });
      } else {
        would.remove();
      }
      const record = button(fill(t.tRecord, { n: n }), "record", e.id);
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
      const fresh = parse(await response.text()).getElementById("scoreboard");
      return fresh ? fresh.getAttribute("data-scorer") : null;
    } catch (err) { return null; }
  }

  async function outboxAction(b) {
    const id = parseInt(b.dataset.id, 10);
    const entry = await Outbox().get(id);
    if (!entry) return renderOutbox();
    const t = texts();
    if (b.dataset.outboxAction === "discard") {
      if (!window.confirm(t.tDiscardConfirm)) return;
      const all = await Outbox().list(entry.session);
      const after = all.filter(function (x) { return x.number > entry.number; });
      await Outbox().remove(id);
      if (after.length) await Outbox().renumber(entry.session, after[0].id, entry.number);
      const deal = document.getElementById("deal-form");
      if (deal && deal.dataset.replaces === String(id)) fresh(deal);
    } else if (b.dataset.outboxAction === "record") {
      // exactly what was shown: the server still stands where it was counted from, or the
      // list shows the new figures instead of recording
      const n = parseInt(b.dataset.n, 10);
      if (b.dataset.state) {
        b.disabled = true;
        const now = await serverState();
        if (now !== b.dataset.state) { asked = 0; refreshBoard(); return renderOutbox(); }
      }
      remember(entry.session, n);
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
    form.querySelectorAll("input[type=number]").forEach(validate);
    local(form);
    form.dispatchEvent(new CustomEvent("schreiber:loaded", { bubbles: true }));
    check(form);
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
    const session = sessionId();
    let before = [];
    if (session) before = await Outbox().list(session);
    let sent = 0;
    try { sent = await Outbox().flush({ token: token() }); } catch (e) { sent = 0; }
    if (session) {
      const after = await Outbox().list(session);
      before.forEach(function (x) {
        if (!after.some(function (y) { return y.id === x.id; })) remember(session, x.number + 1, true);
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

  // --- wiring -----------------------------------------------------------------------------
  function entryForm(el) { return el && el.form && el.form.hasAttribute("data-entry") ? el.form : null; }

  document.addEventListener("click", function (evt) {
    const stepper = evt.target.closest("button[data-step]");
    if (stepper && entryForm(stepper)) { evt.preventDefault(); step(stepper); return; }
    const split = evt.target.closest("button[data-split]");
    if (split && entryForm(split)) { evt.preventDefault(); applySplit(split); return; }
    const action = evt.target.closest("button[data-outbox-action]");
    if (action) { evt.preventDefault(); outboxAction(action); }
  });

  function onEdit(evt) {
    const el = evt.target;
    const form = el.form;
    if (!form || !form.hasAttribute("data-entry") || el.type === "hidden") return;
    if (el.type === "number") validate(el);
    changed(form);
  }
  document.addEventListener("input", onEdit);
  document.addEventListener("change", function (evt) {
    if (evt.target.type === "number") return;   // its input events said it already
    onEdit(evt);
  });

  document.addEventListener("submit", function (evt) {
    const form = evt.target;
    if (!form.matches("form[data-save], form[data-entry]")) return;
    const submitter = evt.submitter;
    if (submitter && submitter.hasAttribute("data-check-button") && form.hasAttribute("data-entry")) {
      evt.preventDefault(); check(form); return;
    }
    if (submitter && submitter.name === "step") { evt.preventDefault(); return; }
    if (!form.matches("[data-save]") || form.querySelector("input[name=correcting]")) return;
    evt.preventDefault();
    save(form, submitter);
  });

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
    const t = texts();
    if (!hints) return;
    const said = hints.textContent.trim();
    if (said === t.tOffline) hints.textContent = "";
    if (said === t.tNocheck) { hints.textContent = ""; schedule(deal, 0); }   // the referee is back
  }
  window.addEventListener("online", function () { online(); flushSoon(); });
  // A new board from the server: a deal whose number was taken is counted on it again.
  document.addEventListener("schreiber:board", function () {
    if (document.querySelector("#outbox li.conflict")) renderOutbox();
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") flushSoon();
  });

  function init(root) {
    root.querySelectorAll("form[data-entry]").forEach(function (form) {
      form.noValidate = true;
      if (form.querySelector("input[name=correcting]")) form.dataset.correcting = "";
      local(form);
    });
    const e = entryEl();
    if (e) {
      const n = e.querySelector("input[name=number]");
      if (n) {
        let next = parseInt(n.value, 10);
        if (document.documentElement.hasAttribute("data-offline-copy")) next = Math.max(next, stored(e.dataset.session));
        remember(e.dataset.session, next);
      }
    }
    renderOutbox();
  }

  document.addEventListener("DOMContentLoaded", function () {
    init(document);
    flushSoon(300);
  });
  window.SchreiberEntry = { check: check, local: local, flush: flush, render: renderOutbox };
})();
