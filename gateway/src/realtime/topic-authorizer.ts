import { type EventBus, requestRpc } from '@timeliner/platform';
import { type RealtimeTopic, TimelinesRpc } from '@timeliner/proto';

/** Whether a user may watch a timeline; resolves false when it cannot be established. */
export type TimelineAccessCheck = (userId: string, timelineId: string, requestId?: string) => Promise<boolean>;

/**
 * Who may subscribe to what: a user to its own `user:` topic; a timeline only if the timelines
 * service, which owns visibility and collaborators, says so.
 */
export class TopicAuthorizer {
  constructor(private readonly timelineAccess: TimelineAccessCheck) {}

  async canSubscribe(userId: string, topic: RealtimeTopic, requestId?: string): Promise<boolean> {
    if (topic.kind === 'user') return topic.id === userId.toLowerCase();
    try {
      return await this.timelineAccess(userId, topic.id, requestId);
    } catch {
      return false;
    }
  }
}

/**
 * The question to the timelines service, which owns visibility and collaborators:
 * `TimelinesRpc.CheckAccess` on the bus. With no responder (the service is down) every timeline
 * topic is refused.
 */
export function busTimelineAccess(bus: EventBus, timeoutMs: number): TimelineAccessCheck {
  return async (userId, timelineId, requestId) => {
    try {
      const reply = await requestRpc(bus, TimelinesRpc.CheckAccess, { timelineId, userId }, { timeoutMs, ...(requestId ? { requestId } : {}) });
      return reply.canView;
    } catch {
      return false;
    }
  };
}
