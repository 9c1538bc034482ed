/** Registers the service worker served at /sw.js (spec 001, section 7). */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((error: unknown) => {
      console.error('Service worker registration failed', error);
    });
  };
  // Registering after load keeps the worker's precaching off the first paint's network path.
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
