import type { DescMessage } from '@bufbuild/protobuf';
import { decodeEvent, type EventBus, type Logger, type Subscription } from '@timeliner/platform';
import { AuthEvents, type EventDefinition, Realtime, SocialEvents, TimelinesEvents } from '@timeliner/proto';
import type { TopicAuthorizer } from './topic-authorizer.js';
import type { TopicHub, TopicSubscriber } from './topic-hub.js';

/** Changes after which someone may no longer see a timeline. */
const ACCESS_CHANGES: ReadonlyArray<EventDefinition<DescMessage>> = [
  TimelinesEvents.TimelineUpdated,
  TimelinesEvents.TimelinePublished,
  TimelinesEvents.TimelineUnpublished,
  TimelinesEvents.CollaboratorRemoved,
  TimelinesEvents.OwnershipTransferred,
];

/**
 * When a change that the timelines service learns from another service's events (a block, a
 * removed follower, a hidden timeline, a suspension, an account made private) is asked about
 * again: at once, and again after the timelines service's copy has had time to apply it (its
 * durable consumer may be a moment behind this live fan-out).
 */
export const RECHECK_DELAYS_MS: readonly number[] = [0, 750, 2_500];

/**
 * Ends realtime subscriptions that outlived their access. Every replica hears the timelines
 * service's access changes (live fan-out, like session revocations) and asks again, for each of
 * its sockets watching that timeline, whether the socket's user may still see it; those who may
 * not are taken off the topic and told `{type: 'unsubscribed', topic, reason: 'access-revoked'}`.
 * A deleted timeline's watchers all go. An access check that cannot be answered counts as "no"
 * (the client may subscribe again once it can).
 *
 * The rules of issue 28 end subscriptions the same way: a block asks again about every timeline
 * either person watches; a follower removed (or a declined request), about every timeline they
 * watch; a timeline the moderators hid, about its watchers; a suspension or an account made
 * private, about every timeline watched here (the owner of a topic is not known here).
 */
export async function watchAccessChanges(bus: EventBus, hub: TopicHub, authorizer: TopicAuthorizer, logger: Logger): Promise<Subscription> {
  const revoke = (topic: string, subscriber: TopicSubscriber) => {
    hub.leave(subscriber, topic);
    subscriber.notify({ type: 'unsubscribed', topic, reason: 'access-revoked' });
  };
  const recheckOne = async (topic: string, subscriber: TopicSubscriber) => {
    const parsed = Realtime.parseTopic(topic);
    if (!parsed || parsed.kind !== 'timeline') return;
    const allowed = subscriber.userId ? await authorizer.canSubscribe(subscriber.userId, parsed) : false;
    // Still watching (not left meanwhile) and no longer allowed.
    if (!allowed && hub.watchersOf(topic).includes(subscriber)) revoke(topic, subscriber);
  };
  const recheck = async (timelineId: string) => {
    const topic = Realtime.formatTopic({ kind: 'timeline', id: timelineId.toLowerCase() });
    await Promise.all(hub.watchersOf(topic).map((subscriber) => recheckOne(topic, subscriber)));
  };
  const recheckWatchesOf = async (predicate: (subscriber: TopicSubscriber) => boolean) => {
    await Promise.all(hub.watchesOf(predicate).map(({ topic, subscriber }) => recheckOne(topic, subscriber)));
  };
  const timers = new Set<NodeJS.Timeout>();
  const repeatedly = (work: () => Promise<void>, what: string) => {
    for (const delay of RECHECK_DELAYS_MS) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        work().catch((error: unknown) => logger.warn({ err: error, what }, 'could not recheck realtime access'));
      }, delay);
      timer.unref();
      timers.add(timer);
    }
  };
  const ofUsers = (...ids: string[]) => {
    const users = new Set(ids.map((id) => id.toLowerCase()));
    return (subscriber: TopicSubscriber) => subscriber.userId !== undefined && users.has(subscriber.userId.toLowerCase());
  };
  const everyone = () => true;

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

  /** Another service's change: decoded, and when it may end someone's access, asked about repeatedly. */
  const onChange = async <S extends DescMessage>(definition: EventDefinition<S>, pick: (event: ReturnType<typeof decodeEvent<S>>) => (() => Promise<void>) | null) => {
    subscriptions.push(
      await bus.subscribe(definition.subject, (message) => {
        let work: (() => Promise<void>) | null;
        try {
          work = pick(decodeEvent(definition, message));
        } catch (error) {
          logger.warn({ err: error, subject: message.subject }, 'unreadable access change dropped');
          return;
        }
        if (work) repeatedly(work, definition.subject);
      }),
    );
  };
  await onChange(SocialEvents.BlockChanged, (e) => (e.active ? () => recheckWatchesOf(ofUsers(e.blockerId, e.blockedId)) : null));
  await onChange(SocialEvents.FollowChanged, (e) => (e.active ? null : () => recheckWatchesOf(ofUsers(e.followerId))));
  await onChange(SocialEvents.ContentModerated, (e) => (e.hidden && e.contentType === 'timeline' ? () => recheck(e.contentId) : null));
  await onChange(SocialEvents.AccountSuspensionChanged, (e) => (e.active ? () => recheckWatchesOf(everyone) : null));
  await onChange(AuthEvents.UserUpdated, (e) => (e.isPrivate === true ? () => recheckWatchesOf(everyone) : null));

  return {
    unsubscribe: async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.all(subscriptions.map((s) => s.unsubscribe()));
    },
  };
}
