// Save (entry.js names the deal form's scripts): the deal goes to the server and its answer,
// the new scores and a fresh form, is swapped in (one answer); without a network, or
// behind deals still waiting, it is kept on the phone (outbox.js) and sent when the network
// is back (kept.js). The next deal's number: the server's, or after the deals still waiting.
(function () {
  "use strict";
  const E = window.SchreiberEntry;
  const Outbox = function () { return window.SchreiberOutbox; };

  function events(response) {
    try { return JSON.parse(response.headers.get("HX-Trigger") || "{}"); } catch (e) { return {}; }
  }
  function entryEl() { return document.getElementById("entry"); }
  function sessionId() { const e = entryEl(); return e ? e.dataset.session : null; }

  function busy(form, on) {
    form.querySelectorAll("button[type=submit], button:not([type])").forEach(function (b) {
      if (on) { b.dataset.wasDisabled = b.disabled ? "1" : ""; b.disabled = true; }
      else if (b.dataset.wasDisabled !== undefined) { b.disabled = b.dataset.wasDisabled === "1"; delete b.dataset.wasDisabled; }
    });
    if (!on && form.id === "deal-form") E.local(form);
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
                     label: "", form: form.id === "deal-form" ? "deal-form" : "" };
    record.key = Outbox() ? Outbox().newKey() : String(Date.now());
    body.set("idempotency_key", record.key);
    record.body = body.toString();
    const replaces = form.dataset.replaces ? parseInt(form.dataset.replaces, 10) : null;
    const s = E.state(form);
    clearTimeout(s.timer);
    form.removeAttribute("data-check-due");
    if (s.controller) s.controller.abort();
    s.seq += 1;
    // the check this save overtakes ends here: its answer is never applied (a form the
    // save gives back kept "checking" and a pending change for good)
    s.dirty = false;
    form.classList.remove("checking");
    // One save of a form at a time: its buttons stay disabled until this deal is sent or
    // kept on the phone, so a tap meanwhile waits for them and then takes the number after
    // this one (two quick taps offline both took the same number).
    busy(form, true);
    let held = true;
    const release = function () { if (held) { held = false; busy(form, false); } };
    try {
      await E.part();   // the game's words for the deal (its phone.js comes at the first tap)
      record.label = E.describe(form, submitter);
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
    // counted on the board at once, marked provisional, until the answer's board replaces
    // it (the counter is loaded at the first tap: a first tap that saves is counted once
    // it is there, if the answer is not in yet)
    let provisional = window.SchreiberProvisional, answered = false;
    const landed = function (quiet) {
      answered = true;
      if (provisional && record.number) provisional.landed(record.number, quiet);
    };
    if (provisional && record.number) provisional.going(record.number, record.body);
    else if (record.number) {
      E.counter().then(function (counted) {
        if (!counted || answered) return;
        provisional = counted;
        provisional.going(record.number, record.body);
      });
    }
    let response;
    try {
      const sent = E.headers("table");
      if (document.body.dataset.account) sent["X-Schreiber-Owner"] = document.body.dataset.account;
      response = await fetch(form.action, { method: "POST", body: body, headers: sent,
                                            credentials: "same-origin" });
    } catch (e) {
      release();
      landed(!!Outbox());   // about to be kept: the outbox counts it from now on
      if (!Outbox()) return E.note(form, E.texts().tFailed || "");
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
      E.flushSoon();
      return;
    }
    const refused = answer["schreiber:refused"];
    if (refused && refused.kind !== "conflict" && form.id === "deal-form") {
      const fresh = E.parse(html).getElementById("deal-form");
      if (fresh) { E.apply(form, fresh); return; }
    }
    if (refused) { swapTable(html); return; }
    if (Outbox() && (response.status === 403 || (response.redirected && response.url.indexOf("/login/") >= 0))) {
      record.kind = "login";
      return queue(form, record, replaces);
    }
    E.note(form, E.texts().tFailed || "");
  }

  // A deal about to wait on the phone that breaks a rule where the session will stand
  // (the phone's scorer counts it: provisional.js) is refused at once, in the server's
  // words, next to the form, which stays as it was: nothing is kept.
  async function refusedHere(form, record) {
    const provisional = window.SchreiberProvisional || await E.counter();
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
      return E.note(form, E.texts().tFailed || "");
    }
    const deal = document.getElementById("deal-form");
    if (form === deal || replaces) fresh(deal);
    await E.render();
    const box = document.getElementById("outbox");
    if (deal && deal.tagName === "FORM") E.note(deal, box ? box.dataset.tOffline : "");
    const table = document.getElementById("table");
    if (table) table.scrollIntoView({ block: "start" });
    if (navigator.serviceWorker) {
      navigator.serviceWorker.ready.then(function (reg) {
        if (reg.sync) return reg.sync.register("schreiber-outbox");
      }).catch(function () { /* no background sync: the page sends them */ });
    }
    E.flushSoon();
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
    E.local(form);
    form.dispatchEvent(new CustomEvent("schreiber:cleared", { bubbles: true }));
  }

  function swapTable(html) {
    const doc = E.parse(html);
    const next = doc.getElementById("table");
    const current = document.getElementById("table");
    if (!next || !current) { window.location.reload(); return; }
    const table = document.importNode(next, true);
    E.retire(current);
    current.replaceWith(table);
    const recent = doc.getElementById("recent");
    const mine = document.getElementById("recent");
    if (recent && mine) {
      recent.removeAttribute("hx-swap-oob");
      const node = document.importNode(recent, true);
      E.retire(mine);
      mine.replaceWith(node);
      if (window.htmx) window.htmx.process(node);
    }
    if (window.htmx) window.htmx.process(table);
    E.init(table);
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
      h.textContent = E.fill(h.dataset.dealTitle, { n: n });
    });
  }

  document.addEventListener("submit", function (evt) {
    const form = evt.target;
    if (evt.defaultPrevented || !form.matches("form[data-save]")) return;
    const submitter = evt.submitter;
    if (submitter && (submitter.hasAttribute("data-check-button") || submitter.name === "step")) return;
    if (form.querySelector("input[name=correcting]")) return;
    evt.preventDefault();
    save(form, submitter);
  });

  E.inits.push(function () {
    const e = entryEl();
    const n = e && e.querySelector("input[name=number]");
    if (!n) return;
    let next = parseInt(n.value, 10);
    if (document.documentElement.hasAttribute("data-offline-copy")) next = Math.max(next, stored(e.dataset.session));
    remember(e.dataset.session, next);
  });

  Object.assign(E, { sessionId: sessionId, remember: remember, setNumber: setNumber, fresh: fresh });
})();
