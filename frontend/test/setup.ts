import '@testing-library/jest-dom/jest-globals';
import { afterEach, jest } from '@jest/globals';
import { cleanup, configure } from '@testing-library/react';
import { disposeUploadQueues } from '../src/features/media/hooks/use-upload-queue';
import { setRealtimeClient } from '../src/lib/realtime';
import { FakeWebSocket } from '../src/testing/fake-websocket';

// Screens load their code lazily; while the rest of the suite keeps both cores busy, the first
// render of a route can take longer than the library's 1 s default to appear.
configure({ asyncUtilTimeout: 5_000 });

const realFetch = globalThis.fetch;
// No test opens a real socket: the app's realtime client gets sockets a test can drive.
globalThis.WebSocket = FakeWebSocket as unknown as typeof WebSocket;

afterEach(() => {
  cleanup();
  setRealtimeClient(null);
  disposeUploadQueues();
  FakeWebSocket.reset();
  localStorage.clear();
  sessionStorage.clear();
  jest.restoreAllMocks();
  globalThis.fetch = realFetch;
});
