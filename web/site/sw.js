// Debrief's service worker (the static site, tools/publish.py): every file of this version of
// the site that the page fetched is kept, so that the next start needs no network. A new
// build is a new version (its digest below) and a new cache; the old one is dropped.
const CACHE = "debrief-__VERSION__";

self.addEventListener("install", (event) => {
  // What every start loads (tools/publish.py); the page waits for it (start.js). The rest is
  // kept as it comes.
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(__EVERY_START__)));
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim(); // this first visit's own fetches are kept too
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(kept(request, event));
});

async function kept(request, event) {
  const cache = await caches.open(CACHE);
  // A page's address is the app's (routes are after the #): always the site's page.
  const key = request.mode === "navigate" ? "./" : request;
  const found = await cache.match(key, { ignoreSearch: true });
  if (found) return found;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") {
    event.waitUntil(cache.put(key, response.clone()));
  }
  return response;
}
