/* global CACHE_VERSION, PRECACHE_URLS, self, caches, fetch, Request, URL, setTimeout, navigator */
// The app's service worker. The build prepends PRECACHE_URLS (every file of the built app shell)
// and CACHE_VERSION (a hash of their contents); see vite-plugin-service-worker.ts.
//
// - The app shell is precached at install, so the app starts offline.
// - Navigations go to the network first (a deploy shows at once) and fall back to the cached
//   index.html when the network fails or stalls.
// - Precached files (content-hashed) are served from the cache.
// - /api and /ws are never touched: API answers are never cached.
// - Web Push (notifications service): `push` shows the notification and sets the app badge;
//   `notificationclick` focuses an open window on the target, or opens one.

const CACHE_PREFIX = 'timeliner-shell-';
const CACHE_NAME = CACHE_PREFIX + CACHE_VERSION;
const SHELL_URL = '/index.html';
const NAVIGATION_TIMEOUT_MS = 4000;
const precached = new Set(PRECACHE_URLS);

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE_NAME);
      await cache.addAll(PRECACHE_URLS.map((url) => new Request(url, { cache: 'reload' })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(
        names.filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE_NAME).map((name) => caches.delete(name)),
      );
      await self.clients.claim();
    })(),
  );
});

function isApiOrSocket(pathname) {
  return pathname === '/api' || pathname.startsWith('/api/') || pathname === '/ws' || pathname.startsWith('/ws/');
}

async function cachedShell() {
  const cache = await caches.open(CACHE_NAME);
  return (await cache.match(SHELL_URL)) ?? (await caches.match(SHELL_URL));
}

async function navigate(request) {
  const network = fetch(request);
  const timeout = new Promise((resolve) => setTimeout(resolve, NAVIGATION_TIMEOUT_MS, 'timeout'));
  try {
    const first = await Promise.race([network, timeout]);
    if (first !== 'timeout') return first;
    // The network stalls: answer from the cache when we can, else keep waiting for it.
    return (await cachedShell()) ?? (await network);
  } catch (error) {
    const shell = await cachedShell();
    if (shell) return shell;
    throw error;
  }
}

async function fromCache(request) {
  const cache = await caches.open(CACHE_NAME);
  const hit = await cache.match(request);
  return hit ?? fetch(request);
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || isApiOrSocket(url.pathname)) return;
  if (request.mode === 'navigate') {
    event.respondWith(navigate(request));
  } else if (precached.has(url.pathname)) {
    event.respondWith(fromCache(request));
  }
});

const ICON = '/icons/icon-192.png';

/** The payload the notifications service sends; anything unreadable still shows something. */
function readPush(event) {
  try {
    const payload = event.data ? event.data.json() : {};
    return typeof payload === 'object' && payload !== null ? payload : {};
  } catch {
    return { body: event.data ? event.data.text() : '' };
  }
}

/** Only paths of this app are opened: a push cannot send the user elsewhere. */
function targetUrl(url) {
  const target = new URL(typeof url === 'string' ? url : '/', self.location.origin);
  return target.origin === self.location.origin ? target.href : self.location.origin + '/';
}

self.addEventListener('push', (event) => {
  const push = readPush(event);
  const shown = self.registration.showNotification(typeof push.title === 'string' ? push.title : 'Timeliner', {
    body: typeof push.body === 'string' ? push.body : 'You have a new notification',
    // The same group replaces its earlier notification instead of stacking (likes in a burst).
    tag: typeof push.tag === 'string' ? push.tag : undefined,
    renotify: typeof push.tag === 'string',
    icon: typeof push.icon === 'string' ? push.icon : ICON,
    badge: ICON,
    data: { url: targetUrl(push.url), notificationId: push.notificationId },
  });
  const badge =
    typeof push.unreadCount === 'number' && 'setAppBadge' in navigator
      ? (push.unreadCount > 0 ? navigator.setAppBadge(push.unreadCount) : navigator.clearAppBadge()).catch(() => undefined)
      : Promise.resolve();
  event.waitUntil(Promise.all([shown, badge]));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = targetUrl(event.notification.data && event.notification.data.url);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) {
        await open.focus();
        if ('navigate' in open) await open.navigate(url).catch(() => undefined);
        return;
      }
      await self.clients.openWindow(url);
    })(),
  );
});
