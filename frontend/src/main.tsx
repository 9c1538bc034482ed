import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { createAppQueryClient } from './app/provider';
import { createAppRouter } from './app/router';
import { ME_QUERY_KEY } from './lib/current-user';
import { applyVersionMarker } from './lib/app-version';
import { getAuthToken } from './lib/auth-token';
import { applyCspNonce } from './lib/csp-nonce';
import { isUnreachable } from './lib/connection';
import { keepOfflineCache, offerOfflineCache } from './lib/offline-cache';
import { registerServiceWorker } from './lib/service-worker';
import './index.css';

function localStorageOrNull(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // Storage can be blocked (some embedded or privacy modes).
  }
}

async function start() {
  applyCspNonce();
  const storage = localStorageOrNull();
  const reloading = storage
    ? await applyVersionMarker(__APP_VERSION__, {
    storage,
    caches: 'caches' in window ? window.caches : undefined,
    reload: () => window.location.reload(),
  }).catch((error: unknown) => {
    console.error('App version check failed', error);
    return false;
  })
    : false;
  if (reloading) return;

  const container = document.getElementById('root');
  if (!container) throw new Error('Missing #root element');
  const queryClient = createAppQueryClient();
  if (storage) {
    // What was shown before, for a page opened without a connection (lib/offline-cache.ts).
    const offlineCache = { storage, version: __APP_VERSION__, getToken: getAuthToken };
    offerOfflineCache(queryClient, offlineCache, ME_QUERY_KEY, isUnreachable);
    keepOfflineCache(queryClient, offlineCache);
  }
  // The first page's code and data are asked for now, in this task, ahead of React's first render.
  const router = createAppRouter(queryClient);
  const root = createRoot(container);
  // As a transition, the first render yields to the browser every few milliseconds instead of
  // holding the main thread for the whole tree (hundreds of milliseconds on a slow phone), so a
  // tap or a paint is never kept waiting behind it.
  startTransition(() => {
    root.render(
      <StrictMode>
        <App queryClient={queryClient} router={router} />
      </StrictMode>,
    );
  });

  if (import.meta.env.PROD) registerServiceWorker();
}

void start();
