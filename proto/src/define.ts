import type { DescMessage, MessageInitShape, MessageShape } from '@bufbuild/protobuf';

/**
 * A domain event on the bus: its type, the version of its payload and the protobuf schema of
 * that payload. The subject carries the version, so a v2 can run beside v1 while consumers move.
 */
export interface EventDefinition<Schema extends DescMessage = DescMessage> {
  /** `<service>.<entity>.<event>`, e.g. `auth.user.registered`. */
  readonly type: string;
  readonly version: number;
  /** `${type}.v${version}`: the logical subject; the bus adds the deployment's prefix. */
  readonly subject: string;
  readonly schema: Schema;
}

/** A request/reply message pair, answered by one responder of a queue group. */
export interface RpcDefinition<Request extends DescMessage = DescMessage, Reply extends DescMessage = DescMessage> {
  /** `<service>.<entity>.<action>`, e.g. `auth.session.verify`. */
  readonly name: string;
  readonly version: number;
  /** `rpc.${name}.v${version}`. */
  readonly subject: string;
  readonly request: Request;
  readonly reply: Reply;
}

export type EventPayload<Definition extends EventDefinition> = MessageShape<Definition['schema']>;
export type EventPayloadInit<Definition extends EventDefinition> = MessageInitShape<Definition['schema']>;
export type RpcRequest<Definition extends RpcDefinition> = MessageShape<Definition['request']>;
export type RpcRequestInit<Definition extends RpcDefinition> = MessageInitShape<Definition['request']>;
export type RpcReply<Definition extends RpcDefinition> = MessageShape<Definition['reply']>;
export type RpcReplyInit<Definition extends RpcDefinition> = MessageInitShape<Definition['reply']>;

// Subject tokens are lower-case words: no wildcards, no empty tokens, nothing a NATS subject or a
// JetStream consumer name would choke on.
const DOTTED_NAME = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*){2,}$/;

function checkName(kind: string, name: string, version: number): void {
  if (!DOTTED_NAME.test(name)) {
    throw new Error(`${kind} name "${name}" must be <service>.<entity>.<action> in lower case`);
  }
  if (!Number.isInteger(version) || version < 1) {
    throw new Error(`${kind} "${name}" needs a positive integer version, got ${version}`);
  }
}

export function defineEvent<Schema extends DescMessage>(
  type: string,
  version: number,
  schema: Schema,
): EventDefinition<Schema> {
  checkName('Event', type, version);
  return Object.freeze({ type, version, subject: `${type}.v${version}`, schema });
}

export function defineRpc<Request extends DescMessage, Reply extends DescMessage>(
  name: string,
  version: number,
  request: Request,
  reply: Reply,
): RpcDefinition<Request, Reply> {
  checkName('RPC', name, version);
  return Object.freeze({ name, version, subject: `rpc.${name}.v${version}`, request, reply });
}
