/** Polls until `check` stops throwing (or returns true), or fails with its last error. */
export async function waitFor(check: () => unknown, timeoutMs = 3_000, intervalMs = 10): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await check()) !== false) return;
      if (Date.now() > deadline) throw new Error(`Condition not met within ${timeoutMs} ms`);
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await sleep(intervalMs);
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
