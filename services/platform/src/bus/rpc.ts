import { randomUUID } from 'node:crypto';
import { currentRequestId, runWithContext } from '../logging/request-context.js';
import { create, type DescMessage, fromBinary, type MessageInitShape, type MessageShape, toBinary } from '@bufbuild/protobuf';
import type { RpcDefinition } from '@timeliner/proto';
import type { EventBus, RequestContext, RequestOptions, Subscription } from './event-bus.port.js';

/**
 * Typed request/reply over the bus, protobuf binary both ways:
 *
 *   const session = await requestRpc(bus, AuthRpc.VerifySession, { tokenHash }, { timeoutMs: 500 });
 */
export async function requestRpc<Request extends DescMessage, Reply extends DescMessage>(
  bus: EventBus,
  definition: RpcDefinition<Request, Reply>,
  request: MessageInitShape<Request>,
  options: RequestOptions = {},
): Promise<MessageShape<Reply>> {
  const requestId = options.requestId ?? currentRequestId();
  const data = await bus.request(definition.subject, toBinary(definition.request, create(definition.request, request)), {
    ...options,
    ...(requestId ? { requestId } : {}),
  });
  try {
    return fromBinary(definition.reply, data);
  } catch (error) {
    throw new Error(`Reply on ${definition.subject} does not decode`, { cause: error });
  }
}

/**
 * Answers requests as one member of `queue` (replicas share it, so each request is answered
 * once). A request that does not decode, or a handler that throws, makes the caller's
 * requestRpc reject with BusRemoteError.
 */
export function serveRpc<Request extends DescMessage, Reply extends DescMessage>(
  bus: EventBus,
  definition: RpcDefinition<Request, Reply>,
  queue: string,
  handler: (request: MessageShape<Request>, context: RequestContext) => Promise<MessageInitShape<Reply>>,
): Promise<Subscription> {
  return bus.respond(definition.subject, queue, async (data, context) => {
    let request: MessageShape<Request>;
    try {
      request = fromBinary(definition.request, data);
    } catch (error) {
      throw new Error(`Request on ${definition.subject} does not decode`, { cause: error });
    }
    const reply = await runWithContext({ requestId: context.requestId ?? randomUUID() }, () => handler(request, context));
    return toBinary(definition.reply, create(definition.reply, reply));
  });
}
