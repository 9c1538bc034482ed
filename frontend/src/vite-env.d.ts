/// <reference types="vite/client" />

/** The build's version, injected by Vite (`define` in vite.config.ts). */
declare const __APP_VERSION__: string;
