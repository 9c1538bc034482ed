/**
 * The "for-you listing changed" signal of this process: something new may rank in for-you (a post
 * was written, a timeline became public and published). Writers raise it after their change
 * commits; the feed's shared snapshots (feed/for-you-snapshot.ts) listen, and are retaken before
 * their next page.
 */
const listeners = new Set<() => void>();

/** Something new may rank in for-you. Call it after the change commits. */
export function forYouListingChanged(): void {
  for (const listener of listeners) listener();
}

/** Calls `listener` on every listing change until the returned function is called. */
export function onForYouListingChanged(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
