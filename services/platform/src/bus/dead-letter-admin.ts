import { jetstream, type JetStreamManager, jetstreamManager } from '@nats-io/jetstream';
import { connect, headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { DeadLetterHeader, type DeadLetter } from './dead-letters.js';
import { MetaHeader } from './jetstream-headers.js';
import { BusWire } from './jetstream-streams.js';

export interface StoredDeadLetter extends DeadLetter {
  /** Sequence in the dead-letter stream: what `replay --seq` names. */
  seq: number;
}

/**
 * Operator access to the dead letters of one deployment (`prefix`) on JetStream: list them, and
 * replay them, that is publish each again on its event subject and remove it from the dead-letter
 * stream. A replayed event keeps its event id (the `Tl-Event-Id` header) under a new message id,
 * so the duplicate window does not drop it; consumer groups that applied it before skip it by
 * their inbox, and the group that gave up handles it.
 */
export class DeadLetterAdmin {
  private constructor(
    private readonly nc: NatsConnection,
    private readonly jsm: JetStreamManager,
    private readonly wire: BusWire,
  ) {}

  static async open(servers: string | string[], prefix: string): Promise<DeadLetterAdmin> {
    const nc = await connect({ servers, name: `dead-letters-${prefix}` });
    return new DeadLetterAdmin(nc, await jetstreamManager(nc), new BusWire(prefix));
  }

  async list(filter: { group?: string } = {}): Promise<StoredDeadLetter[]> {
    const info = await this.jsm.streams.info(this.wire.deadLetterStream).catch(() => null);
    if (!info || info.state.messages === 0) return [];
    const letters: StoredDeadLetter[] = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
      const stored = await this.jsm.streams.getMessage(this.wire.deadLetterStream, { seq }).catch(() => null);
      if (!stored) continue; // removed (replayed) or expired
      const h = stored.header;
      const letter: StoredDeadLetter = {
        seq,
        group: h.get(DeadLetterHeader.group),
        subject: h.get(DeadLetterHeader.subject),
        eventId: h.get(MetaHeader.eventId) || h.get(MetaHeader.id),
        attempts: Number(h.get(DeadLetterHeader.attempts)),
        error: h.get(DeadLetterHeader.error),
        at: h.get(DeadLetterHeader.at),
      };
      if (!filter.group || filter.group === letter.group) letters.push(letter);
    }
    return letters;
  }

  /** Replays the dead letters chosen (all, one group's, or some sequences); the number replayed. */
  async replay(filter: { group?: string; seqs?: number[] } = {}): Promise<number> {
    const js = jetstream(this.nc);
    let replayed = 0;
    for (const letter of await this.list(filter)) {
      if (filter.seqs && !filter.seqs.includes(letter.seq)) continue;
      const stored = await this.jsm.streams.getMessage(this.wire.deadLetterStream, { seq: letter.seq });
      if (!stored) continue;
      const headers = natsHeaders();
      for (const [key, values] of stored.header) {
        if (key.startsWith('Tl-Dead-')) continue;
        for (const value of values) headers.append(key, value);
      }
      headers.set(MetaHeader.eventId, letter.eventId);
      headers.set(MetaHeader.id, `${letter.eventId}.replay.${letter.seq}.${Date.now()}`);
      await js.publish(this.wire.event(letter.subject), stored.data, { headers });
      await this.jsm.streams.deleteMessage(this.wire.deadLetterStream, letter.seq);
      replayed++;
    }
    return replayed;
  }

  close(): Promise<void> {
    return this.nc.close();
  }
}
