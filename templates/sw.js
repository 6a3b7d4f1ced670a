// Schreiber's service worker, served at /sw.js (scorepad/pwa.py) so that it covers every
// page. It keeps the app shell and static files, a copy of each page visited (shown, marked
// as an offline copy, when the network is away), and sends the deals recorded offline
// (outbox.js) when the network is back, also after the tab was closed (background sync).
// Copies and deals belong to one account (outbox.js): the copies are kept per account,
// and a page that comes for another account, or for nobody, drops the others' copies.
// Offline, the start page is the "No network" page, which lists the sessions held (offline.js).
"use strict";
const VERSION = "{{ version }}";
const SHELL = {{ shell|safe }};
const OFFLINE = {{ offline|safe }};
const HOME = {{ home|safe }};
const STATIC = "schreiber-static-" + VERSION;
const KEEP = 30;
importScripts({{ outbox|safe }});
const Outbox = self.SchreiberOutbox;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(STATIC)
    .then(function (cache) { return cache.addAll(SHELL.concat([OFFLINE])); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k.indexOf("schreiber-static-") === 0 && k !== STATIC; })
      .map(function (k) { return caches.delete(k); }));
  }).then(keepOpen).catch(function () { /* the pages are taken over all the same */ })
    .then(function () { return self.clients.claim(); }));
});

// The pages open when the worker comes (on the very first visit, loaded before it was
// there) are kept as a page from the network is, before the worker takes them over: from
// the browser's own cache, without a request more (a page not in it is not kept). A page
// kept already stays as it is (its copy follows the screen, outbox.js keepPage).
async function keepOpen() {
  const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const owner = await Outbox.account().catch(function () { return ""; });
  for (const client of open) {
    const url = new URL(client.url);
    if (url.origin !== self.location.origin) continue;
    if (owner && await caches.match(url.href, { cacheName: Outbox.pagesOf(owner), ignoreVary: true })) continue;
    try {
      await took(url, await fetch(url.href, { cache: "only-if-cached", mode: "same-origin",
                                              credentials: "same-origin" }));
    } catch (error) { /* not in the browser's cache: kept at the next visit */ }
  }
}

function keepable(url) {
  return !/^\/(accounts|admin|api|i18n|static)\//.test(url.pathname) && url.pathname !== "/sw.js" &&
    url.pathname !== HOME;
}

async function fromCacheFirst(request) {
  const hit = await caches.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) (await caches.open(STATIC)).put(request, response.clone());
  return response;
}

async function keep(owner, url, response) {
  const cache = await caches.open(Outbox.pagesOf(owner));
  await cache.put(url, Outbox.copied(await response.text(), response.headers));   // stamped: when
  const keys = await cache.keys();
  for (let k = 0; k < keys.length - KEEP; k += 1) await cache.delete(keys[k]);
}

function storable(response) {
  return response.ok && response.type === "basic" && !response.redirected &&
    !/no-store/.test(response.headers.get("Cache-Control") || "") &&
    (response.headers.get("Content-Type") || "").indexOf("text/html") === 0;
}

// A kept page, marked so that its script says "offline copy" instead of pretending to be live.
async function marked(response) {
  const html = await response.text();
  const headers = new Headers(response.headers);
  headers.delete("Content-Encoding");
  headers.delete("Content-Length");
  return new Response(html.replace("<html ", "<html data-offline-copy "),
                      { status: 200, headers: headers });
}

// The account a page was rendered for (data-account on its <body>, "" for nobody); null
// when the answer says nothing about it (not a page of ours, an error page).
async function ownerOf(response) {
  if (!response.ok || response.type !== "basic" ||
      (response.headers.get("Content-Type") || "").indexOf("text/html") !== 0) return null;
  const found = /<body\b[^>]*\sdata-account="([^"]*)"/.exec(await response.clone().text());
  return found ? found[1] : null;
}

// A page from the network: it tells which account is logged in now; only that account's
// copies stay, and the page is kept among them.
async function took(url, response) {
  const owner = await ownerOf(response);
  if (owner === null) return;
  await Outbox.setAccount(owner);
  await Outbox.forgetPages(owner);
  if (owner && keepable(url) && storable(response)) await keep(owner, url.href, response.clone());
  await speaking(await response.clone().text());
}

// The "No network" page speaks the language of the last page from the network: kept anew
// when that changes (the language switch), so that offline it is in the user's language.
async function speaking(html) {
  const lang = /<html\b[^>]*\slang="([^"]*)"/;
  const now = lang.exec(html);
  if (!now) return;
  const cache = await caches.open(STATIC);
  const kept = await cache.match(OFFLINE, { ignoreVary: true });
  const was = kept && lang.exec(await kept.text());
  if (was && was[1] === now[1]) return;
  const fresh = await fetch(OFFLINE, { credentials: "same-origin" });
  if (fresh.ok) await cache.put(OFFLINE, fresh);
}

async function page(request) {
  const url = new URL(request.url);
  let response;
  try {
    response = await fetch(request);
  } catch (error) {
    const owner = await Outbox.account().catch(function () { return ""; });
    const hit = owner && url.pathname !== HOME &&   // the start page: the sessions held
      await caches.match(url.href, { cacheName: Outbox.pagesOf(owner),
                                     ignoreVary: true, ignoreSearch: false });
    if (hit) return marked(hit);
    const offline = await caches.match(OFFLINE, { ignoreVary: true });
    return offline || Response.error();
  }
  try { await took(url, response); } catch (error) { /* the page still comes */ }
  return response;
}

self.addEventListener("fetch", function (event) {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.indexOf("/static/") === 0) { event.respondWith(fromCacheFirst(request)); return; }
  if (request.mode === "navigate") event.respondWith(page(request));
});

self.addEventListener("message", function (event) {
  const data = event.data || {};
  if (data.type === "logout") {   // or "log out everywhere", a password change
    event.waitUntil(Outbox.forgetPages(null));
  }
  // (the pages keep their copies as fresh as their screens themselves: outbox.js keepPage)
});

self.addEventListener("sync", function (event) {
  if (event.tag === "schreiber-outbox") event.waitUntil(Outbox.flush({}));   // the account's own
});
