import { startTransition, useEffect, useState } from 'react';

interface Entry {
  module?: unknown;
  error?: unknown;
  failed: boolean;
  listeners: Set<() => void>;
}

const entries = new Map<() => Promise<unknown>, Entry>();

function entryFor(load: () => Promise<unknown>): Entry {
  let entry = entries.get(load);
  if (!entry) {
    const created: Entry = { failed: false, listeners: new Set() };
    entries.set(load, created);
    const settle = () => created.listeners.forEach((listener) => listener());
    load().then(
      (module) => {
        created.module = module;
        settle();
      },
      (error: unknown) => {
        created.error = error;
        created.failed = true;
        settle();
      },
    );
    entry = created;
  }
  return entry;
}

/**
 * A module loaded on demand, or undefined while it loads: for the parts of the first screen that
 * are split off (the signed-in shell, the sign-in screen). Unlike `React.lazy` it never suspends,
 * so the caller keeps what it shows until the module is there: a suspended first render makes
 * React show a fallback and then hold the real screen back for up to 300 ms before revealing it.
 * A module that fails to load throws to the nearest error boundary.
 */
export function useLoadedModule<T>(load: () => Promise<T>): T | undefined {
  const entry = entryFor(load);
  const [, setSettled] = useState(0);
  const settled = entry.module !== undefined || entry.failed;
  useEffect(() => {
    // A transition: the screen that arrives renders in slices the browser can interrupt.
    const listener = () => startTransition(() => setSettled((count) => count + 1));
    if (settled) return;
    if (entry.module !== undefined || entry.failed) {
      listener(); // It settled between this render and its effect.
      return;
    }
    entry.listeners.add(listener);
    return () => {
      entry.listeners.delete(listener);
    };
  }, [entry, settled]);
  if (entry.failed) throw entry.error;
  return entry.module as T | undefined;
}
