import type { BusLogger } from './bus-logger.js';
import type {
  BusMessage,
  ConsumeOptions,
  EventBus,
  RequestContext,
  RequestOptions,
  Subscription,
} from './event-bus.port.js';
import { InProcessEventBus } from './in-process-event-bus.js';

/**
 * In single-process mode every service runs in one process and must meet on one bus, yet each
 * service creates and closes its bus on its own. Services get a handle on a bus shared per prefix:
 * closing a handle ends that service's subscriptions and waits for its handlers; the shared bus
 * closes with its last handle.
 */
const sharedBuses = new Map<string, { bus: InProcessEventBus; handles: number }>();

export function openSharedInProcessBus(prefix: string, logger?: BusLogger): EventBus {
  let entry = sharedBuses.get(prefix);
  if (!entry) {
    entry = { bus: new InProcessEventBus({ logger }), handles: 0 };
    sharedBuses.set(prefix, entry);
  }
  entry.handles++;
  const shared = entry;
  return new SharedBusHandle(shared.bus, async () => {
    if (--shared.handles > 0) return;
    sharedBuses.delete(prefix);
    await shared.bus.close();
  });
}

class SharedBusHandle implements EventBus {
  private readonly subscriptions = new Set<Subscription>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private closing?: Promise<void>;

  constructor(
    private readonly bus: InProcessEventBus,
    private readonly release: () => Promise<void>,
  ) {}

  publish(message: BusMessage): Promise<void> {
    this.assertOpen();
    return this.bus.publish(message);
  }

  consume(options: ConsumeOptions, handler: (message: BusMessage) => Promise<void>): Promise<Subscription> {
    this.assertOpen();
    return this.own(this.bus.consume(options, (message) => this.track(handler(message))));
  }

  broadcast(message: BusMessage): Promise<void> {
    this.assertOpen();
    return this.bus.broadcast(message);
  }

  subscribe(subject: string, handler: (message: BusMessage) => void | Promise<void>): Promise<Subscription> {
    this.assertOpen();
    return this.own(this.bus.subscribe(subject, (message) => this.track(Promise.resolve(handler(message)))));
  }

  request(subject: string, data: Uint8Array, options?: RequestOptions): Promise<Uint8Array> {
    this.assertOpen();
    return this.bus.request(subject, data, options);
  }

  respond(
    subject: string,
    queue: string,
    handler: (data: Uint8Array, context: RequestContext) => Promise<Uint8Array>,
  ): Promise<Subscription> {
    this.assertOpen();
    return this.own(this.bus.respond(subject, queue, (data, context) => this.track(handler(data, context))));
  }

  async isHealthy(): Promise<boolean> {
    return !this.closing && (await this.bus.isHealthy());
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.all([...this.subscriptions].map((sub) => sub.unsubscribe()));
      while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
      await this.release();
    })();
    return this.closing;
  }

  private async own(subscribing: Promise<Subscription>): Promise<Subscription> {
    const inner = await subscribing;
    const outer: Subscription = {
      unsubscribe: async () => {
        this.subscriptions.delete(outer);
        await inner.unsubscribe();
      },
    };
    this.subscriptions.add(outer);
    return outer;
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    const forget = () => void this.inFlight.delete(work);
    work.then(forget, forget);
    return work;
  }

  private assertOpen(): void {
    if (this.closing) throw new Error('Event bus is closed');
  }
}
