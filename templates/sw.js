// Schreiber's service worker, served at /sw.js (scorepad/pwa.py) so that it covers every
// page. It keeps the app shell and static files, a copy of each page visited (shown, marked
// as an offline copy, when the network is away), and sends the deals recorded offline
// (outbox.js) when the network is back, also after the tab was closed (background sync).
"use strict";
const VERSION = "{{ version }}";
const SHELL = {{ shell|safe }};
const OFFLINE = {{ offline|safe }};
const STATIC = "schreiber-static-" + VERSION;
const PAGES = "schreiber-pages";
const KEEP = 30;
importScripts({{ outbox|safe }});

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(STATIC)
    .then(function (cache) { return cache.addAll(SHELL.concat([OFFLINE])); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k.indexOf("schreiber-static-") === 0 && k !== STATIC; })
      .map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

function keepable(url) {
  return !/^\/(accounts|admin|api|i18n|static)\//.test(url.pathname) && url.pathname !== "/sw.js";
}

async function fromCacheFirst(request) {
  const hit = await caches.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) (await caches.open(STATIC)).put(request, response.clone());
  return response;
}

async function keep(url, response) {
  const cache = await caches.open(PAGES);
  await cache.put(url, response);
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

async function page(request) {
  const url = new URL(request.url);
  try {
    const response = await fetch(request);
    if (keepable(url) && storable(response)) await keep(url.href, response.clone());
    return response;
  } catch (error) {
    const hit = await (await caches.open(PAGES)).match(url.href, { ignoreVary: true, ignoreSearch: false });
    if (hit) return marked(hit);
    const offline = await caches.match(OFFLINE, { ignoreVary: true });
    return offline || Response.error();
  }
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
  if (data.type === "logout") {
    event.waitUntil(caches.delete(PAGES));
  } else if (data.type === "refresh" && typeof data.url === "string") {
    const url = new URL(data.url, self.location.origin);
    if (url.origin !== self.location.origin || !keepable(url)) return;
    event.waitUntil(fetch(url.href, { credentials: "same-origin" }).then(function (response) {
      if (storable(response)) return keep(url.href, response);
    }).catch(function () { /* offline: keep the copy we have */ }));
  }
});

self.addEventListener("sync", function (event) {
  if (event.tag === "schreiber-outbox") event.waitUntil(self.SchreiberOutbox.flush({}));
});
