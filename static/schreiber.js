// Schreiber's page script: keeps the screen awake on an open scoreboard, fades the "undo"
// note, says "offline" when the live board cannot be refreshed, installs the service
// worker (offline app), copies texts, and shows the first form error. Every page works
// without it; the deal entry lives in entry.js, the card picker in cardpicker.js.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // --- the start form's number steppers: from the typed number, else the chosen preset's,
  // kept inside the parameter's range; the field stays a plain input without this script
  document.addEventListener("click", function (evt) {
    const button = evt.target.closest && evt.target.closest("button[data-rule-step]");
    if (!button) return;
    const box = button.closest(".rule-stepper");
    const input = box && box.querySelector("input");
    if (!input) return;
    const min = box.dataset.min === undefined ? -Infinity : parseInt(box.dataset.min, 10);
    const max = box.dataset.max === undefined ? Infinity : parseInt(box.dataset.max, 10);
    const delta = parseInt(button.dataset.ruleStep, 10);
    let value = /^-?\d+$/.test(input.value.trim()) ? parseInt(input.value.trim(), 10) : null;
    if (value === null) {
      const form = button.closest("form");
      const preset = form && form.querySelector("input[name=preset]:checked");
      let starts = {};
      try { starts = JSON.parse(box.dataset.starts || "{}"); } catch (e) { starts = {}; }
      const start = preset ? starts[preset.value] : undefined;
      value = typeof start === "number" ? start : (delta > 0 ? min - 1 : max + 1);
      if (!isFinite(value)) value = 0;
    }
    value = Math.min(max, Math.max(min, value + delta));
    input.value = String(value);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });

  // --- the start form's seats: the keyboard's Enter (its "next" key) on a filled seat goes
  // to the next seat shown, on an empty one it starts, as Enter does without this script
  document.addEventListener("keydown", function (evt) {
    const seat = evt.target.closest && evt.target.closest("input[data-seat]");
    if (!seat || evt.key !== "Enter" || !seat.value.trim()) return;
    const seats = Array.prototype.filter.call(
      seat.form.querySelectorAll("input[data-seat]"),
      function (el) { return el.offsetParent !== null; });
    const next = seats[seats.indexOf(seat) + 1];
    if (!next) return;
    evt.preventDefault();
    next.focus();
  });

  // --- the screen stays awake while a scoreboard is open ---------------------------------
  let lock = null;
  async function keepAwake() {
    if (!("wakeLock" in navigator)) return;
    if (!document.querySelector("[data-wake-lock]:not([hidden])")) return;
    try {
      lock = await navigator.wakeLock.request("screen");
      lock.addEventListener("release", function () { lock = null; });
    } catch (e) {
      lock = null; // not allowed now (battery saver, hidden tab): try again when visible
    }
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && lock === null) keepAwake();
  });

  function fadeUndo(root) {
    root.querySelectorAll("[data-undo]:not([data-fading])").forEach(function (note) {
      note.setAttribute("data-fading", "");
      setTimeout(function () { note.classList.add("faded"); }, 8000);
    });
  }

  // --- offline: a board that cannot be refreshed says so ---------------------------------
  const note = function () { return document.querySelector("[data-offline-note]"); };
  let lastGood = new Date();
  function setOffline(on, text) {
    const el = note();
    if (!el) return;
    document.body.classList.toggle("offline", on);
    if (on) {
      const time = lastGood.toLocaleTimeString(document.documentElement.lang || undefined,
        { hour: "2-digit", minute: "2-digit" });
      el.textContent = text || el.dataset.since.replace("{time}", time);
    }
    el.hidden = !on;
  }
  function polled(evt) {
    const elt = evt.detail && evt.detail.elt;
    return elt && elt.id === "scoreboard";
  }
  // The board as the answer has it: the same version of the session, polled with the same
  // grant, as the board on the screen. The browser answers most polls from its cache (a
  // 304 from the server) with the body it had, which htmx would swap in again every 2 s:
  // the board, the last deals and everything that follows a new board (issue 33: htmx's
  // 227 ms long task on a phone).
  const heads = new DOMParser();
  function same(board, html) {
    const head = /<section\b[^>]*\bid="scoreboard"[^>]*>/.exec(html);
    if (!head || !board.dataset.version) return false;
    const fresh = heads.parseFromString(head[0] + "</section>", "text/html").getElementById("scoreboard");
    return !!fresh && fresh.dataset.version === board.dataset.version &&
      fresh.getAttribute("hx-get") === board.getAttribute("hx-get");
  }
  document.addEventListener("htmx:sendError", function (evt) {
    if (polled(evt)) setOffline(true);
  });
  // (a 200 is swapped in: the old board is gone before afterRequest, so beforeSwap says it)
  ["htmx:beforeSwap", "htmx:afterRequest"].forEach(function (name) { document.addEventListener(name, function (evt) {
    if (!polled(evt)) return;
    const xhr = evt.detail.xhr;
    if (name === "htmx:beforeSwap" && xhr && xhr.status === 200 && same(evt.detail.elt, xhr.responseText)) {
      evt.detail.shouldSwap = false;   // nothing new: not swapped, not copied
    } else if (name === "htmx:beforeSwap" && xhr && xhr.status === 200 && window.SchreiberOutbox &&
        document.body.hasAttribute("data-account")) {
      // a board that changed goes into the page's offline copy too (outbox.js): the copy
      // is never older than the screen
      window.SchreiberOutbox.keepPage(window.location.href, xhr.responseText, ["scoreboard", "recent"]);
    }
    if (xhr && xhr.status > 0) {
      lastGood = new Date();
      if (!document.documentElement.hasAttribute("data-offline-copy") || xhr.status === 200) {
        document.documentElement.removeAttribute("data-offline-copy");
        setOffline(false);
      }
    }
  }); });
  // Offline, a polled part (the board, a tournament's tables and screen) is not asked
  // for: each poll would fail (htmx:sendError every 2 s). "online" asks for the board at once.
  // A hidden tab (the phone in a pocket, another app in front) asks nothing either, and
  // the board asks at once when it is seen again.
  document.addEventListener("htmx:configRequest", function (evt) {
    const elt = evt.detail.elt;
    if (!elt || !/\bevery\b/.test(elt.getAttribute("hx-trigger") || "")) return;
    if (document.visibilityState === "hidden") { evt.preventDefault(); return; }
    if (navigator.onLine) return;
    evt.preventDefault();
    if (polled(evt)) setOffline(true);
  });
  document.addEventListener("visibilitychange", function () {
    const board = document.getElementById("scoreboard");
    if (document.visibilityState === "visible" && board && navigator.onLine && window.htmx) {
      window.htmx.trigger(board, "schreiber:refresh");
    }
  });
  window.addEventListener("offline", function () {
    if (document.getElementById("scoreboard")) setOffline(true);
  });
  window.addEventListener("online", function () {
    const board = document.getElementById("scoreboard");
    if (board && window.htmx) window.htmx.trigger(board, "schreiber:refresh");
  });
  window.SchreiberOffline = setOffline;

  // --- the installable app: our service worker ------------------------------------------
  function register() {
    const url = document.body.dataset.sw;
    if (!url || !("serviceWorker" in navigator)) return;
    navigator.serviceWorker.register(url, { scope: "/" }).catch(function () { /* http: none */ });
  }
  // --- logging out: what the phone keeps belongs to this account ---------------------------
  // Its unsent deals (outbox.js) wait for its next login here, or go, as the user says; the
  // copies of its pages go; and the phone is logged in to nobody until the next page.
  function forgetPages() {
    if (navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage({ type: "logout" });
    }
    const Outbox = window.SchreiberOutbox;
    return Outbox ? Outbox.forgetPages(null).catch(function () { /* none kept */ }) : Promise.resolve();
  }
  function ask(count) {
    const dialog = document.querySelector("[data-logout-ask]");
    if (!dialog || !dialog.showModal) return Promise.resolve("keep");
    dialog.querySelector("[data-logout-count]").textContent = count === 1 ? dialog.dataset.tOne
      : dialog.dataset.tMany.replace("{n}", String(count));
    return new Promise(function (resolve) {
      dialog.addEventListener("close", function () { resolve(dialog.returnValue || "cancel"); },
                              { once: true });
      dialog.returnValue = "";
      dialog.showModal();
    });
  }
  // (a phone's storage that does not answer does not keep anyone from logging out: the
  // deals then stay, as with "keep")
  function within(promise, fallback) {
    return Promise.race([promise.catch(function () { return fallback; }),
                         new Promise(function (resolve) { setTimeout(resolve, 3000, fallback); })]);
  }
  async function leave(form) {
    const Outbox = window.SchreiberOutbox;
    if (Outbox) {
      const waiting = await within(Outbox.list(null), []);
      if (waiting.length) {
        const choice = await ask(waiting.length);
        if (choice === "cancel") return;
        if (choice === "discard") await within(Outbox.discardAll(), null);
      }
      await within(Outbox.setAccount(""), null);
    }
    await within(forgetPages(), null);
    form.dataset.leaving = "";
    HTMLFormElement.prototype.submit.call(form);
  }
  document.addEventListener("submit", function (evt) {
    if (!evt.target.matches("[data-logout]") || evt.target.hasAttribute("data-leaving")) return;
    evt.preventDefault();
    leave(evt.target);
  });

  // --- copy buttons: <button data-copy="#id"> -------------------------------------------
  document.addEventListener("click", function (evt) {
    const button = evt.target.closest("[data-copy]");
    if (!button) return;
    const source = document.querySelector(button.dataset.copy);
    if (!source) return;
    const text = source.value !== undefined ? source.value : source.textContent;
    const done = function () {
      const label = button.parentElement.querySelector("[data-copied]");
      if (label) { label.hidden = false; setTimeout(function () { label.hidden = true; }, 3000); }
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { source.select(); });
    } else if (source.select) {
      source.select();
      try { document.execCommand("copy"); done(); } catch (e) { /* selected: copy by hand */ }
    }
  });

  // --- the evening's card: <button data-share-card="url" data-share-dark="url"> ----------
  // The phone's share sheet with the picture where it takes files (canShare), else the
  // picture is downloaded. The picture is fetched when the page opens, so that the tap
  // still counts as the user's when the share sheet is asked for.
  const cards = {};
  function cardUrl(button) {
    const dark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
    return dark && button.dataset.shareDark ? button.dataset.shareDark : button.dataset.shareCard;
  }
  function fetchCard(url) {
    if (!cards[url]) {
      cards[url] = fetch(url, { credentials: "same-origin" }).then(function (response) {
        if (!response.ok) throw new Error("card " + response.status);
        return response.blob();
      });
      cards[url].catch(function () { delete cards[url]; });
    }
    return cards[url];
  }
  function download(blob, name) {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = name;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(link.href); }, 30000);
  }
  document.addEventListener("click", async function (evt) {
    const button = evt.target.closest("[data-share-card]");
    if (!button) return;
    evt.preventDefault();
    let blob;
    try { blob = await fetchCard(cardUrl(button)); } catch (e) { return; }
    const name = button.dataset.filename || "schreiber.png";
    const file = new File([blob], name, { type: "image/png" });
    const source = button.dataset.textFrom && document.querySelector(button.dataset.textFrom);
    if (navigator.canShare && navigator.share && navigator.canShare({ files: [file] })) {
      try {
        await navigator.share({ files: [file], title: button.dataset.title || "",
                                text: source ? source.value : "" });
        return;
      } catch (e) {
        if (e && e.name === "AbortError") return;  // the user closed the share sheet
      }
    }
    download(blob, name);
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-share-card]").forEach(function (button) {
      fetchCard(cardUrl(button)).catch(function () { /* fetched again on the tap */ });
    });
  });

  // --- a form sent back with errors: show the first one ---------------------------------
  function firstError() {
    const error = document.querySelector("main form .errorlist, main form .field-error");
    if (!error || document.querySelector("#deal-form")) return;
    const details = error.closest("details");
    if (details) details.open = true;
    error.scrollIntoView({ block: "center" });
    const field = error.closest("[data-field]");
    const input = field && field.querySelector("input:not([type=hidden]), select, textarea");
    if (input) input.focus({ preventScroll: true });
  }

  document.addEventListener("DOMContentLoaded", function () {
    keepAwake();
    fadeUndo(document);
    register();
    firstError();
    document.querySelectorAll("[data-js-show]").forEach(function (el) { el.hidden = false; });
    if (document.querySelector("[data-forget-pages]")) forgetPages();   // the password changed
    if (document.documentElement.hasAttribute("data-offline-copy")) {
      const el = note();
      if (el) setOffline(true, el.dataset.copy);
      document.querySelectorAll(".messages").forEach(function (m) { m.remove(); });
    }
  });
  document.addEventListener("schreiber:swapped", function (evt) { fadeUndo(evt.target); });
})();
