// A steady write load through the gateway, as people using the product would make it: each person
// creates timelines, comments on them and on other people's, and likes or unlikes them. Every answer is recorded: what
// was acknowledged (2xx) must be there afterwards; what was refused must have been refused
// honestly (503 with Retry-After, never 500).
import { randomBytes } from 'node:crypto';
import { sleep } from './infra.js';

export type WriteKind = 'timeline' | 'comment' | 'like';
const KINDS: WriteKind[] = ['timeline', 'comment', 'like'];

interface Person {
  id: string;
  token: string;
  timelines: string[];
}

export interface Refusal {
  kind: WriteKind;
  status: number | 'network';
  retryAfter: string | null;
  at: number;
  /** For a request that got no answer: what the client saw (a reset, a timeout, ...). */
  reason?: string;
}

export class WriteLoad {
  readonly timelines = new Set<string>();
  readonly comments = new Set<string>();
  readonly refusals: Refusal[] = [];
  readonly acknowledged: Record<WriteKind, number> = { timeline: 0, comment: 0, like: 0 };
  /** When each kind of write last succeeded, was last refused, and first succeeded after that (ms since the epoch). */
  readonly lastSuccess: Record<WriteKind, number> = { timeline: 0, comment: 0, like: 0 };
  readonly lastRefusal: Record<WriteKind, number> = { timeline: 0, comment: 0, like: 0 };
  readonly firstSuccessAfterRefusal: Record<WriteKind, number> = { timeline: 0, comment: 0, like: 0 };
  private people: Person[] = [];
  /** Timelines published, so that other people may see and comment them. */
  private readonly published: string[] = [];
  private running = false;
  private loops: Promise<void>[] = [];

  constructor(private readonly baseUrl: string) {}

  /** Signs `count` people up (before any fault, so this must succeed). */
  async signUp(count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const handle = `fault_${randomBytes(4).toString('hex')}`;
      const response = await fetch(`${this.baseUrl}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ displayName: `Fault ${i}`, username: handle, email: `${handle}@example.com`, password: 'correct-horse-battery' }),
      });
      if (response.status !== 201 && response.status !== 200) throw new Error(`sign-up answered ${response.status}: ${await response.text()}`);
      const body = (await response.json()) as { user: { id: string }; session: { token: string } };
      this.people.push({ id: body.user.id, token: body.session.token, timelines: [] });
    }
  }

  get personIds(): string[] {
    return this.people.map((p) => p.id);
  }

  start(concurrency: number, pauseMs: number): void {
    this.running = true;
    this.loops = Array.from({ length: concurrency }, (_, i) => this.loop(i, pauseMs));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  /**
   * Waits until every kind of write succeeds again after a fault removed at `since`, and returns
   * how long after `since` the last kind to be refused was first acknowledged again (0 when none
   * was refused after `since`).
   */
  async recovered(since: number, timeoutMs = 180_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    const pending = () => KINDS.some((kind) => this.lastSuccess[kind] <= Math.max(since, this.lastRefusal[kind]));
    while (pending()) {
      if (Date.now() > deadline) throw new Error(`writes did not recover within ${timeoutMs / 1000} s: ${JSON.stringify({ success: this.lastSuccess, refusal: this.lastRefusal })}`);
      await sleep(50);
    }
    return Math.max(0, ...KINDS.filter((kind) => this.lastRefusal[kind] >= since).map((kind) => this.firstSuccessAfterRefusal[kind] - since));
  }

  private async loop(index: number, pauseMs: number): Promise<void> {
    let turn = 0;
    while (this.running) {
      const person = this.people[(index + turn++) % this.people.length]!;
      const timeline = person.timelines[Math.floor(Math.random() * person.timelines.length)];
      const roll = Math.random();
      if (!timeline || roll < 0.25) await this.createTimeline(person);
      else if (roll < 0.5) await this.comment(person, timeline);
      else if (roll < 0.75) await this.comment(person, this.anyTimeline() ?? timeline);
      else await this.like(person, timeline, Math.random() < 0.6);
      await sleep(pauseMs);
    }
  }

  /**
   * One person's new timeline commented by another (the n-th and the next person); the ids, or
   * undefined when either write was refused.
   */
  async commentedTimeline(n: number): Promise<{ ownerId: string; timelineId: string; commentId: string } | undefined> {
    const owner = this.people[n % this.people.length]!;
    const commenter = this.people[(n + 1) % this.people.length]!;
    const timelineId = await this.createTimeline(owner);
    const commentId = timelineId ? await this.comment(commenter, timelineId) : undefined;
    return timelineId && commentId ? { ownerId: owner.id, timelineId, commentId } : undefined;
  }

  /** Signs a new person up and changes their display name at once; their id, or undefined when refused. */
  async renamedPerson(displayName: string): Promise<string | undefined> {
    const before = this.people.length;
    await this.signUp(1);
    const person = this.people[before]!;
    const response = await fetch(`${this.baseUrl}/api/auth/profile`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${person.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ displayName }),
    });
    return response.ok ? person.id : undefined;
  }

  private anyTimeline(): string | undefined {
    return this.published[Math.floor(Math.random() * this.published.length)];
  }

  private async createTimeline(person: Person): Promise<string | undefined> {
    const body = await this.write('timeline', person, 'POST', '/api/timelines', { title: `Fault timeline ${randomBytes(3).toString('hex')}`, visibility: 'public' });
    const id = (body as { id?: string; timeline?: { id: string } } | undefined)?.id ?? (body as { timeline?: { id: string } } | undefined)?.timeline?.id;
    if (id) {
      this.timelines.add(id);
      person.timelines.push(id);
      // Published, so that other people see it and comment on it.
      if (await this.write('timeline', person, 'PATCH', `/api/timelines/${id}`, { status: 'published' })) this.published.push(id);
    }
    return id;
  }

  private async comment(person: Person, timeline: string): Promise<string | undefined> {
    const body = await this.write('comment', person, 'POST', `/api/timelines/${timeline}/comments`, { content: `comment ${randomBytes(3).toString('hex')}` });
    const id = (body as { id?: string } | undefined)?.id;
    if (id) this.comments.add(id);
    return id;
  }

  private async like(person: Person, timeline: string, like: boolean): Promise<void> {
    await this.write('like', person, like ? 'POST' : 'DELETE', `/api/timelines/${timeline}/like`);
  }

  /** One request; the parsed body of a 2xx answer, else undefined (the refusal recorded). */
  private async write(kind: WriteKind, person: Person, method: string, path: string, body?: unknown): Promise<unknown> {
    const at = Date.now();
    try {
      const response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${person.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(20_000),
      });
      const text = await response.text();
      if (response.ok) {
        this.succeeded(kind);
        return text ? JSON.parse(text) : {};
      }
      this.refused({ kind, status: response.status, retryAfter: response.headers.get('retry-after'), at });
    } catch (error) {
      // The gateway itself was killed, or the answer never came: not acknowledged, nothing to check.
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      this.refused({ kind, status: 'network', retryAfter: null, at, reason: `${method} ${path.replace(/[0-9a-f-]{36}/g, ':id')}: ${cause?.code ?? cause?.message ?? (error as Error).message} after ${Date.now() - at} ms` });
    }
    return undefined;
  }

  private succeeded(kind: WriteKind): void {
    const now = Date.now();
    this.acknowledged[kind]++;
    if (this.lastSuccess[kind] <= this.lastRefusal[kind]) this.firstSuccessAfterRefusal[kind] = now;
    this.lastSuccess[kind] = now;
  }

  private refused(refusal: Refusal): void {
    this.refusals.push(refusal);
    this.lastRefusal[refusal.kind] = Date.now();
  }
}
