// The outbox: deals recorded without a network wait on the phone (IndexedDB) with their
// deal number and Idempotency-Key, and are sent in order, once, when the network is back.
// Used by the page (entry.js) and by the service worker (sw.js, background sync); a Web
// Lock keeps two senders from overlapping, the Idempotency-Key keeps a repeated send from
// recording twice. A deal the server refuses stays, marked with the reason, and holds back
// the deals after it (their numbers follow it) until it is corrected or discarded; one
// whose number another phone took keeps the deals recorded since (meanwhile, in words)
// until its owner records it as the next deal (entry.js shows what it would score then).
//
// A phone may be shared: every deal belongs to the account that queued it (its owner,
// data-account on the page's <body>), and only that account's pages and the service
// worker while that account is logged in list or send it. The account logged in is the
// one of the last page loaded, kept here for the service worker (which has no page);
// logging out clears it. The service worker keeps its page copies per account (PAGES).
(function (global) {
  "use strict";
  const DB = "schreiber", STORE = "outbox", LOCK = "schreiber-outbox";
  const ACCOUNT_DB = "schreiber-account", META = "meta";
  const PAGES = "schreiber-pages-";
  const HEADER = "X-Schreiber-Owner";
  const KEPT = "X-Schreiber-Kept";   // on a page copy: when it was written (the offline start page)
  const opened = {};

  function open(name, store, options) {
    if (!opened[name]) {
      opened[name] = new Promise(function (resolve, reject) {
        const request = global.indexedDB.open(name, 1);
        request.onupgradeneeded = function () { request.result.createObjectStore(store, options); };
        request.onsuccess = function () {
          const database = request.result;
          database.onversionchange = function () { database.close(); delete opened[name]; };
          resolve(database);
        };
        request.onerror = function () { delete opened[name]; reject(request.error); };
      });
    }
    return opened[name];
  }
  function db() { return open(DB, STORE, { keyPath: "id", autoIncrement: true }); }
  function accountDb() { return open(ACCOUNT_DB, META, { keyPath: "key" }); }

  function run(mode, work, which) {
    const name = which === META ? META : STORE;
    return (which === META ? accountDb() : db()).then(function (database) {
      return new Promise(function (resolve, reject) {
        const tx = database.transaction(name, mode);
        const store = tx.objectStore(name);
        let result;
        Promise.resolve(work(store)).then(function (value) { result = value; });
        tx.oncomplete = function () { resolve(result); };
        tx.onerror = function () { reject(tx.error); };
        tx.onabort = function () { reject(tx.error); };
      });
    });
  }

  function ask(request) {
    return new Promise(function (resolve, reject) {
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function order(a, b) { return (a.number - b.number) || (a.id - b.id); }

  // --- whose: the account logged in ----------------------------------------------------
  function pageAccount() {
    const body = global.document && global.document.body;
    return body && body.hasAttribute("data-account") ? body.dataset.account : null;
  }
  function stored() {
    return run("readonly", function (store) { return ask(store.get("account")); }, META)
      .then(function (row) { return row ? row.value : ""; });
  }
  // A page speaks for the account it was rendered for, as long as it is still the one of
  // the last page loaded (another tab may have logged in since); the service worker for
  // the one of the last page loaded. "": nobody, nothing is listed or sent.
  function account() {
    const mine = pageAccount();
    return stored().then(function (last) { return mine === null || mine === last ? last : ""; });
  }
  // The account of a page just loaded (pages and the service worker call it); deals kept
  // before deals had owners go to the first account that comes.
  // ``was``: the account that played without an account on this phone and has just
  // signed up as ``value`` (data-account-was, once): its deals are the new account's.
  function setAccount(value, was) {
    value = value || "";
    return run("readwrite", function (store) { store.put({ key: "account", value: value }); }, META)
      .then(function () {
        if (!value) return null;
        return run("readwrite", function (store) {
          return ask(store.getAll()).then(function (all) {
            all.forEach(function (e) {
              if (!e.owner || (was && e.owner === was)) { e.owner = value; store.put(e); }
            });
          });
        });
      });
  }

  function list(session) {
    return Promise.all([run("readonly", function (store) { return ask(store.getAll()); }), account()])
      .then(function (found) {
        const who = found[1];
        return found[0].filter(function (e) {
          return who && e.owner === who && (session == null || e.session === String(session));
        }).sort(order);
      });
  }

  function newKey() {
    if (global.crypto && global.crypto.randomUUID) return global.crypto.randomUUID();
    return Date.now().toString(36) + Math.random().toString(36).slice(2);
  }

  let channel = null;
  try { channel = new BroadcastChannel("schreiber-outbox"); } catch (e) { channel = null; }
  function changed() {
    if (channel) channel.postMessage({ type: "changed" });
    if (global.document) global.document.dispatchEvent(new CustomEvent("schreiber:outbox"));
  }

  function add(entry) {
    entry.session = String(entry.session);
    entry.status = entry.status || "waiting";
    entry.created = entry.created || Date.now();
    return account().then(function (who) {
      if (!who) throw new Error("nobody is logged in");
      entry.owner = who;
      return run("readwrite", function (store) { return ask(store.add(entry)); });
    }).then(function (id) { changed(); return id; });
  }

  // `quiet`: a note kept with the deal that changes nothing on any screen (no "changed").
  function update(id, changes, quiet) {
    return run("readwrite", function (store) {
      return ask(store.get(id)).then(function (entry) {
        if (!entry) return null;
        Object.assign(entry, changes);
        store.put(entry);
        return entry;
      });
    }).then(function (entry) { if (!quiet) changed(); return entry; });
  }

  function remove(id) {
    return run("readwrite", function (store) { store.delete(id); }).then(changed);
  }

  function get(id) {
    return Promise.all([run("readonly", function (store) { return ask(store.get(id)); }), account()])
      .then(function (found) { return found[0] && found[1] && found[0].owner === found[1] ? found[0] : undefined; });
  }

  // Every deal of the account logged in goes (logging out: "discard them").
  function discardAll() {
    return list(null).then(function (entries) {
      if (!entries.length) return;
      return run("readwrite", function (store) {
        entries.forEach(function (e) { store.delete(e.id); });
      }).then(changed);
    });
  }

  // The service worker's copies of pages, per account; every other account's go (all of
  // them without `keep`).
  function pagesOf(who) { return PAGES + who; }
  function forgetPages(keep) {
    if (!global.caches) return Promise.resolve();
    return global.caches.keys().then(function (names) {
      return Promise.all(names.filter(function (n) {
        return (n.indexOf(PAGES) === 0 || n === "schreiber-pages") && !(keep && n === pagesOf(keep));
      }).map(function (n) { return global.caches.delete(n); }));
    });
  }

  // The copy of this page that the service worker shows offline, kept as fresh as the
  // screen (issue 23): every answer that changes the screen (a save's new table, a polled
  // board that changed) is written into the copy at once, part by part (`ids`: the
  // elements of `html` that replace the copy's); after a save (`fetchMissing`) a page
  // without a copy yet gets one from the server, fetched after the change. One write
  // after the other, so that a later answer is never overwritten by an earlier one.
  let patching = Promise.resolve(false);
  function ownerIn(html) {
    const found = /<body\b[^>]*\sdata-account="([^"]*)"/.exec(html);
    return found ? found[1] : null;
  }
  function copied(text, headers) {
    const kept = new Headers(headers);
    kept.delete("Content-Encoding");
    kept.delete("Content-Length");
    kept.set(KEPT, new Date().toISOString());
    return new Response(text, { status: 200, headers: kept });
  }
  function keepPage(url, html, ids, fetchMissing) {
    if (!global.caches || !global.DOMParser) return Promise.resolve(false);
    url = String(url).split("#")[0];
    const work = async function () {
      const who = await account();
      if (!who) return false;
      const cache = await global.caches.open(pagesOf(who));
      const hit = await cache.match(url, { ignoreVary: true });
      if (!hit) {   // none kept yet: the page as it is now
        if (!fetchMissing) return false;
        const response = await fetch(url, { credentials: "same-origin" });
        if (!response.ok || response.redirected || /no-store/.test(response.headers.get("Cache-Control") || "") ||
            (response.headers.get("Content-Type") || "").indexOf("text/html") !== 0) return false;
        const text = await response.text();
        if (ownerIn(text) !== who) return false;
        await cache.put(url, copied(text, response.headers));
        return true;
      }
      const parser = new global.DOMParser();
      const copy = parser.parseFromString(await hit.text(), "text/html");
      const fresh = parser.parseFromString(html, "text/html");
      let changed = false;
      ids.forEach(function (id) {
        const now = fresh.getElementById(id), old = copy.getElementById(id);
        if (!now || !old) return;
        now.removeAttribute("hx-swap-oob");
        old.replaceWith(copy.importNode(now, true));
        changed = true;
      });
      if (!changed) return false;
      await cache.put(url, copied("<!doctype html>\n" + copy.documentElement.outerHTML, hit.headers));
      return true;
    };
    patching = patching.then(work, work).catch(function () { return false; });
    return patching;
  }

  // Give the session's deals from `first` on (by position) the numbers start, start+1, ...
  // with new keys: none of them was ever sent (the outbox stops at a refused deal).
  // `hold`: only `first` goes; the deals after it wait, held, until their owner has seen
  // what each scores under its new number (entry.js: a number another phone took).
  function renumber(session, first, start, hold) {
    return list(session).then(function (entries) {
      const from = entries.findIndex(function (e) { return e.id === first; });
      if (from < 0) return null;
      return run("readwrite", function (store) {
        entries.slice(from).forEach(function (entry, k) {
          entry.number = start + k;
          entry.key = newKey();
          entry.reason = ""; entry.kind = ""; entry.meanwhile = [];
          if (hold && k > 0 && entry.status !== "editing") {
            entry.status = "refused"; entry.kind = "conflict"; entry.next = entry.number;
          } else if (entry.status !== "editing") {
            entry.status = "waiting";
          }
          store.put(entry);
        });
      });
    }).then(changed);
  }

  function trigger(response) {
    try { return JSON.parse(response.headers.get("HX-Trigger") || "{}"); } catch (e) { return {}; }
  }

  // Send one deal. "recorded" | "refused" | "login" | "network"
  function send(entry, token) {
    const body = new URLSearchParams(entry.body);
    body.set("idempotency_key", entry.key);
    if (entry.number != null) body.set("number", String(entry.number));
    if (token) body.set("csrfmiddlewaretoken", token);
    const headers = { "HX-Request": "true", "HX-Target": "table",
                      "X-CSRFToken": body.get("csrfmiddlewaretoken") || "" };
    headers[HEADER] = entry.owner;   // the server refuses it for any other account
    return update(entry.id, { status: "sending" }).then(function () {
      return fetch(entry.url, { method: "POST", body: body, headers: headers,
                                credentials: "same-origin" });
    }).then(function (response) {
      const events = trigger(response);
      if (events["schreiber:recorded"]) {
        return remove(entry.id).then(function () { return "recorded"; });
      }
      const refused = events["schreiber:refused"];
      if (refused) {
        return update(entry.id, { status: "refused", kind: refused.kind || "illegal",
                                  reason: (refused.reasons || []).join(" "),
                                  next: refused.next || null,
                                  meanwhile: refused.meanwhile || [] })
          .then(function () { return "refused"; });
      }
      if (response.status === 403 || (response.redirected && response.url.indexOf("/login/") >= 0)) {
        return update(entry.id, { status: "waiting", kind: "login" }).then(function () { return "login"; });
      }
      if (response.status >= 500) {
        return update(entry.id, { status: "waiting" }).then(function () { return "network"; });
      }
      return update(entry.id, { status: "refused", kind: "error", reason: "HTTP " + response.status })
        .then(function () { return "refused"; });
    }, function () {
      return update(entry.id, { status: "waiting" }).then(function () { return "network"; });
    });
  }

  // Send every waiting deal, session by session, in number order; stop a session at its
  // first deal that is not recorded, and everything when the network is gone.
  function flush(options) {
    const token = options && options.token;
    const work = function () {
      return list(null).then(async function (entries) {
        const sessions = [];
        entries.forEach(function (e) { if (sessions.indexOf(e.session) < 0) sessions.push(e.session); });
        let sent = 0;
        for (const session of sessions) {
          const mine = entries.filter(function (e) { return e.session === session; });
          for (const entry of mine) {
            if (entry.status === "refused" || entry.status === "editing") break;
            const outcome = await send(entry, token);
            if (outcome === "network") return sent;
            if (outcome !== "recorded") break;
            sent += 1;
          }
        }
        return sent;
      });
    };
    if (global.navigator && global.navigator.locks) {
      return global.navigator.locks.request(LOCK, work);
    }
    return work();
  }

  if (pageAccount() !== null && global.document &&
      !global.document.documentElement.hasAttribute("data-offline-copy")) {
    setAccount(pageAccount(), global.document.body.dataset.accountWas).catch(function () { /* no IndexedDB: nothing is kept */ });
  }

  global.SchreiberOutbox = { add: add, list: list, get: get, update: update, remove: remove,
                             renumber: renumber, flush: flush, newKey: newKey, channel: channel,
                             account: account, setAccount: setAccount, discardAll: discardAll,
                             pagesOf: pagesOf, forgetPages: forgetPages, keepPage: keepPage,
                             copied: copied, HEADER: HEADER, KEPT: KEPT };
})(self);
