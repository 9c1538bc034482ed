/**
 * Which feed videos may play now. At most `limit` play at once (spec 000, section 9: 1 on a
 * low-end device, a slow network or in data saver, else 2); the others wait, paused, until a slot
 * frees. A video the person starts by hand takes the oldest slot.
 */

type Listener = () => void;

let holders: string[] = [];
let version = 0;
const listeners = new Set<Listener>();

function emit(): void {
  version += 1;
  for (const listener of listeners) listener();
}

/** Takes a slot when one is free (or `force`, evicting the oldest holder); true when held. */
export function acquireSlot(id: string, limit: number, force = false): boolean {
  if (holders.includes(id)) return true;
  if (holders.length >= limit) {
    if (!force) return false;
    holders = holders.slice(holders.length - limit + 1);
  }
  holders = [...holders, id];
  emit();
  return true;
}

export function releaseSlot(id: string): void {
  if (!holders.includes(id)) return;
  holders = holders.filter((holder) => holder !== id);
  emit();
}

export function holdsSlot(id: string): boolean {
  return holders.includes(id);
}

export function subscribeSlots(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function slotsVersion(): number {
  return version;
}

/** For tests: nobody holds a slot. */
export function resetSlots(): void {
  holders = [];
  emit();
}
