// The service worker (served at /sw.js, its scope the whole site): the client's static
// files and the card art are kept in a cache named by the server's static version, and
// served from it first; a new release (a new version, so a new sw.js) fills a new cache
// and deletes the old one. The API (`/api/...`), every request but a GET, and anything of
// another origin always go to the network, never to the cache (a WebSocket never passes
// here). A page (`/`, `/t/TOKEN`, `/history...`) is asked of the network first, the shell
// kept to be shown when it cannot be reached.

const VERSION = "{{VERSION}}";
const FILES = {{FILES}};
const CACHE = `briscola-${VERSION}`;
const SHELL = "/";
const PAGES = /^\/(?:t\/|history(?:\/|$)|me\/?$|families(?:\/|$)|join\/|$)/;

self.addEventListener("install", (event) => {
  // the files the page itself just fetched are taken from the browser's HTTP cache
  // (`force-cache`), so installing costs the first visit no second download
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: "force-cache" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names.filter((n) => n.startsWith("briscola-") && n !== CACHE).map((n) => caches.delete(n)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

/** Whether a request is one the cache may answer: a GET of this site's static files or
 * card art. */
function cacheable(request, url) {
  return (
    request.method === "GET" &&
    url.origin === self.location.origin &&
    (url.pathname.startsWith("/static/") || url.pathname.startsWith("/cards/"))
  );
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const answer = await fetch(request);
  if (answer.ok && answer.type === "basic") await cache.put(request, answer.clone());
  return answer;
}

async function networkFirst(request) {
  try {
    const answer = await fetch(request);
    if (answer.ok) {
      const cache = await caches.open(CACHE);
      await cache.put(SHELL, answer.clone());
    }
    return answer;
  } catch (e) {
    const kept = await caches.match(SHELL);
    if (kept) return kept;
    throw e;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || request.method !== "GET") return;
  if (url.pathname.startsWith("/api/")) return; // the network alone, never the cache
  if (cacheable(request, url)) {
    event.respondWith(cacheFirst(request));
  } else if (request.mode === "navigate" && PAGES.test(url.pathname)) {
    event.respondWith(networkFirst(request));
  }
});
