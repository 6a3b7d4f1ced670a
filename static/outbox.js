// The outbox: deals recorded without a network wait on the phone (IndexedDB) with their
// deal number and Idempotency-Key, and are sent in order, once, when the network is back.
// Used by the page (entry.js) and by the service worker (sw.js, background sync); a Web
// Lock keeps two senders from overlapping, the Idempotency-Key keeps a repeated send from
// recording twice. A deal the server refuses stays, marked with the reason, and holds back
// the deals after it (their numbers follow it) until it is corrected or discarded.
(function (global) {
  "use strict";
  const DB = "schreiber", STORE = "outbox", LOCK = "schreiber-outbox";
  let opened = null;

  function db() {
    if (!opened) {
      opened = new Promise(function (resolve, reject) {
        const request = global.indexedDB.open(DB, 1);
        request.onupgradeneeded = function () {
          request.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
        };
        request.onsuccess = function () { resolve(request.result); };
        request.onerror = function () { opened = null; reject(request.error); };
      });
    }
    return opened;
  }

  function run(mode, work) {
    return db().then(function (database) {
      return new Promise(function (resolve, reject) {
        const tx = database.transaction(STORE, mode);
        const store = tx.objectStore(STORE);
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

  function list(session) {
    return run("readonly", function (store) { return ask(store.getAll()); }).then(function (all) {
      return all.filter(function (e) { return session == null || e.session === String(session); })
        .sort(order);
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
    return run("readwrite", function (store) { return ask(store.add(entry)); })
      .then(function (id) { changed(); return id; });
  }

  function update(id, changes) {
    return run("readwrite", function (store) {
      return ask(store.get(id)).then(function (entry) {
        if (!entry) return null;
        Object.assign(entry, changes);
        store.put(entry);
        return entry;
      });
    }).then(function (entry) { changed(); return entry; });
  }

  function remove(id) {
    return run("readwrite", function (store) { store.delete(id); }).then(changed);
  }

  function get(id) {
    return run("readonly", function (store) { return ask(store.get(id)); });
  }

  // Give the session's deals from `first` on (by position) the numbers start, start+1, ...
  // with new keys: none of them was ever sent (the outbox stops at a refused deal).
  function renumber(session, first, start) {
    return list(session).then(function (entries) {
      const from = entries.findIndex(function (e) { return e.id === first; });
      if (from < 0) return null;
      return run("readwrite", function (store) {
        entries.slice(from).forEach(function (entry, k) {
          entry.number = start + k;
          entry.key = newKey();
          if (entry.status !== "editing") entry.status = "waiting";
          entry.reason = ""; entry.kind = "";
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
                                  next: refused.next || null })
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

  global.SchreiberOutbox = { add: add, list: list, get: get, update: update, remove: remove,
                             renumber: renumber, flush: flush, newKey: newKey, channel: channel };
})(self);
