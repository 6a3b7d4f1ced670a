// The "No network" page (templates/scorepad/offline.html), which the service worker also
// shows for the start page offline (sw.js): it lists the sessions this phone holds a copy
// of for the account logged in (the worker's page copies, kept per account: outbox.js
// pagesOf), each with its players, its game, when its copy was kept, and "provisional"
// with the count of its deals still in the outbox; a tap opens the copy. Another
// account's copies and deals are never read, and with nobody logged in none are held.
(function () {
  "use strict";
  const box = document.querySelector("[data-held]");
  if (!box) return;
  const Outbox = window.SchreiberOutbox;
  const atHome = window.location.pathname === box.dataset.home;

  function two(n) { return (n < 10 ? "0" : "") + n; }
  // A date and time as the pages write them in this language (Django's
  // SHORT_DATETIME_FORMAT, data-format): its numeric letters, the rest as written.
  function written(date, format) {
    const parts = {
      d: two(date.getDate()), j: String(date.getDate()), m: two(date.getMonth() + 1),
      n: String(date.getMonth() + 1), Y: String(date.getFullYear()),
      y: two(date.getFullYear() % 100), H: two(date.getHours()), G: String(date.getHours()),
      i: two(date.getMinutes()), s: two(date.getSeconds()),
    };
    let out = "";
    for (let k = 0; k < format.length; k += 1) {
      const c = format[k];
      if (c === "\\") { k += 1; out += format[k] || ""; } else if (parts[c] !== undefined) { out += parts[c]; } else if (/[a-zA-Z]/.test(c)) {
        return date.toLocaleString(document.documentElement.lang || undefined,
                                   { dateStyle: "short", timeStyle: "short" });
      } else { out += c; }
    }
    return out;
  }

  // The account's session copies, one per session (its newest), newest first.
  async function held() {
    if (!Outbox || !window.caches) return [];
    const who = await Outbox.account();
    if (!who || !(await caches.has(Outbox.pagesOf(who)))) return [];
    const cache = await caches.open(Outbox.pagesOf(who));
    const parser = new DOMParser();
    const found = {};
    for (const request of await cache.keys()) {
      const response = await cache.match(request, { ignoreVary: true });
      if (!response) continue;
      const html = await response.text();
      if (html.indexOf("data-held-session") < 0) continue;
      const about = parser.parseFromString(html, "text/html").querySelector("[data-held-session]");
      if (!about) continue;
      const kept = new Date(response.headers.get(Outbox.KEPT) || response.headers.get("Date") || 0);
      const url = new URL(request.url);
      const session = {
        id: about.dataset.heldSession, href: url.pathname + url.search, kept: kept,
        name: about.dataset.heldName || "", players: about.dataset.heldPlayers || "",
        game: about.dataset.heldGame || "", waiting: 0,
      };
      if (!found[session.id] || session.kept > found[session.id].kept) found[session.id] = session;
    }
    (await Outbox.list(null)).forEach(function (entry) {
      if (found[entry.session]) found[entry.session].waiting += 1;
    });
    return Object.keys(found).map(function (id) { return found[id]; })
      .sort(function (a, b) { return b.kept - a.kept; });
  }

  function span(className, text) {
    const el = document.createElement("span");
    el.className = className;
    el.textContent = text;
    return el;
  }

  function item(session) {
    const t = box.dataset;
    const link = document.createElement("a");
    link.href = session.href;
    const title = span("held-title", "");
    if (session.name) {
      const name = document.createElement("strong");
      name.textContent = session.name;
      title.append(name, session.players ? " · " : "");
    }
    title.append(session.players);
    link.append(title);
    const seen = isNaN(session.kept.getTime()) || !session.kept.getTime() ? ""
      : t.tSeen.replace("{when}", written(session.kept, t.format || ""));
    link.append(span("held-meta", [session.game, seen].filter(Boolean).join(" · ")));
    if (session.waiting) {
      const count = session.waiting === 1 ? t.tOne : t.tMany.replace("{n}", String(session.waiting));
      link.append(span("held-provisional", t.tProvisional + " · " + count));
    }
    const li = document.createElement("li");
    li.dataset.session = session.id;
    li.append(link);
    return li;
  }

  function show(sessions) {
    const list = box.querySelector("[data-held-list]");
    list.replaceChildren.apply(list, sessions.map(item));
    box.querySelector("[data-held-some]").hidden = !sessions.length;
    box.querySelector("[data-held-none]").hidden = sessions.length > 0;
    box.hidden = false;
    // the start page offline does not point to itself; nor, with nothing held, this page
    // to a start page that has nothing either
    const missing = document.querySelector("[data-offline-missing]");
    if (missing) missing.hidden = atHome;
    const later = document.querySelector("[data-offline-later]");
    if (later) later.hidden = true;
    const home = document.querySelector("[data-offline-home]");
    if (home) home.hidden = atHome || !sessions.length;
  }

  held().then(show, function () { show([]); });
})();
