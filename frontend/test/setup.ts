import '@testing-library/jest-dom/jest-globals';
import { afterEach, jest } from '@jest/globals';
import { cleanup } from '@testing-library/react';

const realFetch = globalThis.fetch;

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  jest.restoreAllMocks();
  globalThis.fetch = realFetch;
});
