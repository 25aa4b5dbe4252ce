// BUILD (above) is written by the build; paths in it are relative to this worker.

const SCOPE = new URL('./', self.location).href;
const SCOPE_PATH = new URL(SCOPE).pathname;
// Caches are per origin: the scope in the name keeps two sites on one host apart.
const PREFIX = 'dalil:' + SCOPE_PATH + ':';
const STATIC_CACHE = PREFIX + 'static:' + BUILD.version;
const PAGES_CACHE = PREFIX + 'pages';
const OFFLINE_URL = BUILD.offline ? new URL(BUILD.offline, SCOPE).href : '';
const DATA = new Set(BUILD.data.map((path) => new URL(path, SCOPE).pathname));
// A data path ending in "/" stands for the files below it (the search index's parts).
const DATA_FOLDERS = [...DATA].filter((path) => path.endsWith('/'));
const NEVER = new Set(BUILD.neverCache.map((path) => new URL(path, SCOPE).pathname));
// 'worker': the search page's worker script, a theme file too.
const STATIC_DESTINATIONS = new Set(['style', 'script', 'worker', 'image', 'font']);

function withoutQuery(url) {
  const clean = new URL(url);
  clean.search = '';
  clean.hash = '';
  return clean.href;
}

function cacheable(response) {
  return response && response.ok && response.type === 'basic' && !response.redirected;
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(STATIC_CACHE);
    // "reload": the build's files, not what the browser's HTTP cache still holds.
    await cache.addAll(BUILD.precache.map((path) => new Request(new URL(path, SCOPE), { cache: 'reload' })));
    await self.skipWaiting();
  })());
});

async function keepPage(cache, url) {
  const key = withoutQuery(url);
  if (!key.startsWith(SCOPE) || (await cache.match(key))) {
    return;
  }
  try {
    const response = await fetch(key);
    if (cacheable(response)) {
      await cache.put(key, response);
    }
  } catch (error) {
    // Offline again: the page is simply not kept.
  }
}

// When this worker replaced an older build's (0: it did not). A page whose load began
// before then may show the older build; it asks on load (see "dalil:hello").
let tookOverAt = 0;

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    const older = names.filter((name) => name.startsWith(PREFIX + 'static:') && name !== STATIC_CACHE);
    if (older.length) {
      tookOverAt = Date.now();
    }
    await Promise.all(older.map((name) => caches.delete(name)));
    await self.clients.claim();
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    // The visit that installed this worker was not served by it: keep those pages too.
    const pages = await caches.open(PAGES_CACHE);
    await Promise.all(windows.map((client) => keepPage(pages, client.url)));
    if (older.length) {
      // Open pages may have come from an older build's cache (stale-while-revalidate).
      for (const client of windows) {
        client.postMessage({ type: 'dalil:updated', builtAt: BUILD.builtAt });
      }
    }
  })());
});

// A page that was still loading during activation missed the message above.
self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'dalil:hello' && event.source && tookOverAt) {
    event.source.postMessage({ type: 'dalil:took-over', at: tookOverAt });
  }
});

async function trim(cache) {
  const keys = await cache.keys();
  const excess = keys.length - BUILD.maxPages;
  if (excess > 0) {
    await Promise.all(keys.slice(0, excess).map((key) => cache.delete(key)));
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(STATIC_CACHE);
  const cached = await cache.match(request, { ignoreSearch: true });
  if (cached) {
    return cached;
  }
  const response = await fetch(request);
  if (cacheable(response)) {
    await cache.put(request, response.clone());
  }
  return response;
}

// Stale-while-revalidate: the cached copy at once, the network's copy for next time.
async function staleWhileRevalidate(event, fallback) {
  const key = withoutQuery(event.request.url);
  const cache = await caches.open(PAGES_CACHE);
  const cached = await cache.match(key);
  const fresh = fetch(event.request).then(async (response) => {
    if (cacheable(response)) {
      await cache.put(key, response.clone());
      await trim(cache);
    } else if (response.status === 404 || response.status === 410) {
      await cache.delete(key);
    }
    return response;
  });
  if (cached) {
    event.waitUntil(fresh.catch(() => undefined));
    return cached;
  }
  try {
    return await fresh;
  } catch (error) {
    const offline = fallback && OFFLINE_URL && (await caches.match(OFFLINE_URL, { cacheName: STATIC_CACHE }));
    if (offline) {
      return offline;
    }
    throw error;
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  // Never cached: anything but GET, other hosts, build information, "no-store" fetches.
  if (request.method !== 'GET' || request.cache === 'no-store') {
    return;
  }
  const url = new URL(request.url);
  if (!request.url.startsWith(SCOPE) || NEVER.has(url.pathname)) {
    return;
  }
  if (request.mode === 'navigate') {
    event.respondWith(staleWhileRevalidate(event, true));
  } else if (STATIC_DESTINATIONS.has(request.destination)) {
    event.respondWith(cacheFirst(request));
  } else if (DATA.has(url.pathname) || url.pathname.endsWith('/') ||
             DATA_FOLDERS.some((folder) => url.pathname.startsWith(folder))) {
    // The search indexes and pages read by scripts (the compare page reads listing pages).
    event.respondWith(staleWhileRevalidate(event, false));
  }
});
