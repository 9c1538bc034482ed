import '@testing-library/jest-dom/jest-globals';
import { afterEach, jest } from '@jest/globals';
import { cleanup, configure } from '@testing-library/react';
import { disposeUploadQueues } from '../src/features/media/hooks/use-upload-queue';
import { setRealtimeClient } from '../src/lib/realtime';
import { FakeWebSocket } from '../src/testing/fake-websocket';

// Screens load their code lazily, and jest transforms a route's modules on its first import; while
// the rest of the suite keeps both cores busy (browsers, services), that first render has been seen
// to take over 5 s. A passing wait returns as soon as its element appears, so only a failing one
// pays for the margin; it stays under the 20 s test timeout so a failure names the missing element.
configure({ asyncUtilTimeout: 15_000 });

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
