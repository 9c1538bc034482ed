/** How many pushes a replica sends at once, in all and per person and per push service host. */
export interface PushLimits {
  /** Sends at once for one person (their browsers, their notifications). */
  perPerson: number;
  /** Sends at once to one push service host (`host:port`). */
  perHost: number;
  /** Pushes of one person that may wait in this replica for a free send; more are put back in the queue. */
  waitingPerPerson: number;
  /** Pushes to one host that may wait in this replica; more are put back in the queue. */
  waitingPerHost: number;
}

export const DEFAULT_PUSH_LIMITS: PushLimits = { perPerson: 4, perHost: 16, waitingPerPerson: 4, waitingPerHost: 8 };

/**
 * This replica has as many of the person's (or host's) pushes running and waiting as it takes:
 * the job goes back to the queue (a retry with back-off) instead of holding a worker that another
 * person's push needs.
 */
export class PushBusyError extends Error {
  constructor(readonly key: 'person' | 'host') {
    super(`Too many pushes at once for this ${key}; put back`);
    this.name = 'PushBusyError';
  }
}

interface Waiter {
  person: string;
  host: string;
  admit: (release: () => void) => void;
}

/**
 * Keeps one person's pushes, or one slow push service, from taking every push worker: a send
 * starts only while its person and its host are under their limits; a few more of each may wait
 * here (first come, first served among those that can start), and beyond that a push is refused
 * at once with `PushBusyError`. With the worker's concurrency above `waitingPerPerson +
 * perPerson` and `waitingPerHost + perHost`, someone else's push always finds a free worker.
 */
export class PushGate {
  private readonly running = new Map<string, number>();
  private readonly waitingCount = new Map<string, number>();
  private readonly waiting: Waiter[] = [];

  constructor(readonly limits: PushLimits = DEFAULT_PUSH_LIMITS) {}

  /** Resolves to `release` once the push may be sent; rejects with PushBusyError, or when `signal` aborts while it waits. */
  enter(person: string, host: string, signal?: AbortSignal): Promise<() => void> {
    const personKey = `p:${person}`;
    const hostKey = `h:${host}`;
    if (this.canRun(personKey, hostKey)) return Promise.resolve(this.start(personKey, hostKey));
    if (this.count(this.waitingCount, personKey) >= this.limits.waitingPerPerson) return Promise.reject(new PushBusyError('person'));
    if (this.count(this.waitingCount, hostKey) >= this.limits.waitingPerHost) return Promise.reject(new PushBusyError('host'));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        person: personKey,
        host: hostKey,
        admit: (release) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
      };
      const onAbort = () => {
        const index = this.waiting.indexOf(waiter);
        if (index >= 0) {
          this.waiting.splice(index, 1);
          this.unwait(waiter);
        }
        reject(signal?.reason ?? new Error('aborted'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
      this.add(this.waitingCount, personKey, 1);
      this.add(this.waitingCount, hostKey, 1);
    });
  }

  /** Whether a push of this person would be refused now whatever its host (checked before any lookup). */
  isFull(person: string): boolean {
    const key = `p:${person}`;
    return this.count(this.running, key) >= this.limits.perPerson && this.count(this.waitingCount, key) >= this.limits.waitingPerPerson;
  }

  /** Sends running now, in all. */
  get inFlight(): number {
    let total = 0;
    for (const [key, n] of this.running) if (key.startsWith('p:')) total += n;
    return total;
  }

  private canRun(person: string, host: string): boolean {
    return this.count(this.running, person) < this.limits.perPerson && this.count(this.running, host) < this.limits.perHost;
  }

  private start(person: string, host: string): () => void {
    this.add(this.running, person, 1);
    this.add(this.running, host, 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.add(this.running, person, -1);
      this.add(this.running, host, -1);
      this.admitWaiting();
    };
  }

  private admitWaiting(): void {
    for (let i = 0; i < this.waiting.length; ) {
      const waiter = this.waiting[i]!;
      if (this.canRun(waiter.person, waiter.host)) {
        this.waiting.splice(i, 1);
        this.unwait(waiter);
        waiter.admit(this.start(waiter.person, waiter.host));
      } else {
        i++;
      }
    }
  }

  private unwait(waiter: Waiter): void {
    this.add(this.waitingCount, waiter.person, -1);
    this.add(this.waitingCount, waiter.host, -1);
  }

  private count(map: Map<string, number>, key: string): number {
    return map.get(key) ?? 0;
  }

  private add(map: Map<string, number>, key: string, delta: number): void {
    const next = (map.get(key) ?? 0) + delta;
    if (next <= 0) map.delete(key);
    else map.set(key, next);
  }
}
