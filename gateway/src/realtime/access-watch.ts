import type { DescMessage } from '@bufbuild/protobuf';
import { decodeEvent, type EventBus, type Logger, type Subscription } from '@timeliner/platform';
import { type EventDefinition, Realtime, TimelinesEvents } from '@timeliner/proto';
import type { TopicAuthorizer } from './topic-authorizer.js';
import type { TopicHub } from './topic-hub.js';

/** Changes after which someone may no longer see a timeline. */
const ACCESS_CHANGES: ReadonlyArray<EventDefinition<DescMessage>> = [
  TimelinesEvents.TimelineUpdated,
  TimelinesEvents.TimelinePublished,
  TimelinesEvents.TimelineUnpublished,
  TimelinesEvents.CollaboratorRemoved,
  TimelinesEvents.OwnershipTransferred,
];

/**
 * Ends realtime subscriptions that outlived their access. Every replica hears the timelines
 * service's access changes (live fan-out, like session revocations) and asks again, for each of
 * its sockets watching that timeline, whether the socket's user may still see it; those who may
 * not are taken off the topic and told `{type: 'unsubscribed', topic, reason: 'access-revoked'}`.
 * A deleted timeline's watchers all go. An access check that cannot be answered counts as "no"
 * (the client may subscribe again once it can).
 */
export async function watchAccessChanges(bus: EventBus, hub: TopicHub, authorizer: TopicAuthorizer, logger: Logger): Promise<Subscription> {
  const revoke = (topic: string, subscriber: ReturnType<TopicHub['watchersOf']>[number]) => {
    hub.leave(subscriber, topic);
    subscriber.notify({ type: 'unsubscribed', topic, reason: 'access-revoked' });
  };
  const recheck = async (timelineId: string) => {
    const topic = Realtime.formatTopic({ kind: 'timeline', id: timelineId.toLowerCase() });
    await Promise.all(
      hub.watchersOf(topic).map(async (subscriber) => {
        const allowed = subscriber.userId ? await authorizer.canSubscribe(subscriber.userId, { kind: 'timeline', id: timelineId.toLowerCase() }) : false;
        if (!allowed) revoke(topic, subscriber);
      }),
    );
  };
  const subscriptions: Subscription[] = [];
  subscriptions.push(
    await bus.subscribe(TimelinesEvents.TimelineDeleted.subject, (message) => {
      try {
        const { timelineId } = decodeEvent(TimelinesEvents.TimelineDeleted, message);
        const topic = Realtime.formatTopic({ kind: 'timeline', id: timelineId.toLowerCase() });
        for (const subscriber of hub.watchersOf(topic)) revoke(topic, subscriber);
      } catch (error) {
        logger.warn({ err: error, subject: message.subject }, 'unreadable timeline deletion dropped');
      }
    }),
  );
  for (const definition of ACCESS_CHANGES) {
    subscriptions.push(
      await bus.subscribe(definition.subject, async (message) => {
        let timelineId: string;
        try {
          timelineId = (decodeEvent(definition, message) as unknown as { timelineId: string }).timelineId;
        } catch (error) {
          logger.warn({ err: error, subject: message.subject }, 'unreadable access change dropped');
          return;
        }
        await recheck(timelineId).catch((error: unknown) => logger.warn({ err: error, timelineId }, 'could not recheck realtime access'));
      }),
    );
  }
  return { unsubscribe: async () => void (await Promise.all(subscriptions.map((s) => s.unsubscribe()))) };
}
