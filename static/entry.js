// The deal being entered lives in the phone. Chips, steppers and typed numbers change at
// once, without a round trip; the referee's live check runs in the background (debounced,
// the latest wins) and only updates the messages and the preview, never what was tapped.
// Without this script every form still works as a plain form post.
//
// The deal form's scripts, by concern (templates/scorepad/_entry_scripts.html loads them,
// only on a page with a deal form to fill):
//   entry.js   the form on the phone: counts, steppers, typed numbers, the live check
//   saving.js  Save: the deal sent (its answer swapped in) or kept on the phone; the number
//   kept.js    the deals kept on the phone: the list, a deal another phone's took, sending
// and the game's own part, its phone.js (scorepad/games/<game>/static/), which knows what
// its deal means: it hooks in here (hook: a one-tap split of the counts, the deal in
// words). On the session page it comes with the first tap or key on the entry panel
// (#entry's data-game-part: part), as the phone's scorer does (kept.js): a page only looked
// at never loads it. This file knows no game.
(function () {
  "use strict";
  const DEBOUNCE = 150;
  const parser = new DOMParser();
  const states = new WeakMap();
  // What the game's phone.js adds (hook): counted(form, counts) after the counts are
  // drawn; click(target, form) for any tap on the page (form: the deal form it is in, or
  // null) → true when the tap was its own; describe(form, submitter) → the deal in words,
  // or null for the plain one.
  const hooks = {};

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
  function state(form) {
    let s = states.get(form);
    if (!s) { s = { seq: 0, timer: null, controller: null, dirty: false }; states.set(form, s); }
    return s;
  }
  function byId(root, id) { return root.querySelector("#" + CSS.escape(id)); }
  // The words of the outbox and the offline notes (templates/scorepad/_outbox.html).
  function texts() { const box = document.getElementById("outbox"); return box ? box.dataset : {}; }

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
    if (hooks.counted) hooks.counted(form, { group: group, playing: playing, total: total });
  }

  // A count set by the game's one-tap offer (hook), as if typed.
  function setCount(input, value) {
    if (!input) return;
    input.value = String(value);
    validate(input);
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

  // The label of the chip chosen in a group of radios ("?" when none is).
  function picked(form, name) {
    const r = form.querySelector('input[type=radio][name="' + name + '"]:checked');
    const label = r && form.querySelector('label[for="' + CSS.escape(r.id) + '"]');
    return label ? label.textContent.trim() : "?";
  }

  // The counts in words (data-describe-tricks): "tricks Anna 3, Bert 1, Cilli ⌂, …".
  function describeCounts(form) {
    const d = form.dataset, rows = rowsOf(form);
    if (!d.describeTricks || !rows.length) return "";
    const number = function (input) {
      const v = shown(input);
      return v === null || Number.isNaN(v) ? "?" : String(v);
    };
    return fill(d.describeTricks, { list: rows.map(function (row) {
      if (row.classList.contains("home")) return row.dataset.player + " ⌂";
      const figures = countIn(row, "figures");
      return row.dataset.player + " " + number(countIn(row, "tricks")) + (figures ? "/" + number(figures) : "");
    }).join(", ") });
  }

  // A deal kept on the phone, in words for the "Not sent yet" list (the game's, else the
  // button tapped or the counts), never the labels of other choices.
  function describe(form, submitter) {
    const said = hooks.describe ? hooks.describe(form, submitter) : null;
    if (said !== null && said !== undefined) return said;
    if (form.id !== "deal-form") return (submitter || form.querySelector("button")).textContent.trim();
    return describeCounts(form);
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
  // No referee at hand (offline, or an answer that is not the form): Save stays open, the
  // deal is checked when it is sent.
  function unchecked(form, text) {
    note(form, text || texts().tNocheck || "");
    const save = form.querySelector("[data-save-button]");
    if (save) save.removeAttribute("aria-disabled");
  }

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
        // An answer without the form (the login page the check was sent to when the
        // phone's login or a table's code had ended) was dropped, and Save stayed as the
        // last check had left it, disabled, however the deal was completed (issue 34)
        if (fresh) apply(form, fresh);
        else unchecked(form, texts().tUnchecked);
      })
      .catch(function (e) {   // offline, or the server refused (a 403, a 500)
        if (e.name !== "AbortError" && seq === s.seq) unchecked(form, navigator.onLine ? texts().tUnchecked : null);
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

  // The game's own part, loaded once (a promise; #entry's data-game-part names it): the
  // page draws its offers when it is there (hook).
  let part = null;
  function loadPart() {
    const entry = document.getElementById("entry");
    if (!part && entry && entry.dataset.gamePart) {
      part = new Promise(function (resolve) {
        const script = document.createElement("script");
        script.src = entry.dataset.gamePart;
        script.onload = function () { resolve(); };
        script.onerror = function () { part = null; script.remove(); resolve(); };
        document.head.append(script);
      });
    }
    return part || Promise.resolve();
  }
  // What comes at the first tap or key on the entry panel (this phone starts to enter a
  // deal): the game's part, and the phone's scorer (kept.js adds it).
  const firsts = [loadPart];
  const TOUCHES = ["pointerdown", "keydown", "focusin", "input", "change"];
  function touched(evt) {
    if (!evt.target.closest || !evt.target.closest("#entry")) return;
    TOUCHES.forEach(function (name) { document.removeEventListener(name, touched, true); });
    firsts.forEach(function (run) { run(); });
  }
  TOUCHES.forEach(function (name) { document.addEventListener(name, touched, true); });

  // --- wiring -----------------------------------------------------------------------------
  function entryForm(el) { return el && el.form && el.form.hasAttribute("data-entry") ? el.form : null; }

  document.addEventListener("click", function (evt) {
    const stepper = evt.target.closest("button[data-step]");
    if (stepper && entryForm(stepper)) { evt.preventDefault(); step(stepper); return; }
    const form = evt.target.closest("form[data-entry]");
    if (hooks.click && hooks.click(evt.target, form)) evt.preventDefault();
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

  // "Check" (for a page without this script) and the steppers' own submits stay here.
  document.addEventListener("submit", function (evt) {
    const form = evt.target;
    if (!form.matches("form[data-entry]")) return;
    const submitter = evt.submitter;
    if (submitter && submitter.hasAttribute("data-check-button")) {
      evt.preventDefault(); check(form); return;
    }
    if (submitter && submitter.name === "step") evt.preventDefault();
  });

  // What runs on the page's forms, and again on the table each save swaps in (init): the
  // forms here, the number and the kept deals in saving.js and kept.js.
  const inits = [function (root) {
    root.querySelectorAll("form[data-entry]").forEach(function (form) {
      form.noValidate = true;
      if (form.querySelector("input[name=correcting]")) form.dataset.correcting = "";
      local(form);
    });
  }];
  function init(root) { inits.forEach(function (run) { run(root); }); }
  document.addEventListener("DOMContentLoaded", function () { init(document); });

  window.SchreiberEntry = {
    check: check, local: local, changed: changed, schedule: schedule, state: state,
    apply: apply, retire: retire, note: note, validate: validate, setCount: setCount,
    rowsOf: rowsOf, countIn: countIn, shown: shown, picked: picked, describe: describe,
    describeCounts: describeCounts, fill: fill, parse: parse, headers: headers,
    token: token, texts: texts, init: init, inits: inits,
    part: loadPart, firsts: firsts,
    hook: function (own) {
      Object.assign(hooks, own);
      document.querySelectorAll("form[data-entry]").forEach(local);   // its offers, now
    },
  };
})();
