import { describe, expect, it } from '@jest/globals';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { BusNoResponderError, BusTimeoutError, type EventBus } from '../bus/event-bus.port.js';
import { CheckTimelineAccessReplySchema, CheckTimelineAccessRequestSchema, CollaboratorRole, TimelinesRpc } from '@timeliner/proto';
import { BusTimelineAccess } from './timeline-access.js';

const TIMELINE = '5f0c6c1e-8a4b-4c1e-9a53-1f6b2f0d9a11';
const USER = '0b7e4d52-3c6a-4f0e-8d1b-2a9c5e7f6b33';

/** A bus whose request/reply is the function given; nothing else of it is used. */
const busAnswering = (reply: (subject: string, data: Uint8Array) => Promise<Uint8Array>) => ({ request: reply }) as unknown as EventBus;
const silentLogger = { warn: () => undefined };

describe('BusTimelineAccess', () => {
  it('asks CheckAccess with the caller (empty for anonymous) and maps the role', async () => {
    const asked: Array<{ subject: string; timelineId: string; userId: string }> = [];
    const bus = busAnswering(async (subject, data) => {
      const request = fromBinary(CheckTimelineAccessRequestSchema, data);
      asked.push({ subject, timelineId: request.timelineId, userId: request.userId });
      return toBinary(CheckTimelineAccessReplySchema, create(CheckTimelineAccessReplySchema, { canView: true, canEdit: request.userId !== '', role: request.userId ? CollaboratorRole.EDITOR : CollaboratorRole.UNSPECIFIED, ownerId: USER }));
    });
    const access = new BusTimelineAccess(bus, silentLogger, 500);
    expect(await access.check(TIMELINE, USER)).toEqual({ canView: true, canEdit: true, role: 'editor', ownerId: USER });
    expect(await access.check(TIMELINE, undefined)).toEqual({ canView: true, canEdit: false, role: null, ownerId: USER });
    expect(asked).toEqual([
      { subject: TimelinesRpc.CheckAccess.subject, timelineId: TIMELINE, userId: USER },
      { subject: TimelinesRpc.CheckAccess.subject, timelineId: TIMELINE, userId: '' },
    ]);
  });

  it.each([
    ['a timeout', new BusTimeoutError('x')],
    ['no responder', new BusNoResponderError('x')],
    ['an undecodable reply', null],
  ])('turns %s into 503 Timelines service unavailable', async (_what, error) => {
    const bus = busAnswering(async () => {
      if (error) throw error;
      return new Uint8Array([0xff, 0xff, 0xff]);
    });
    await expect(new BusTimelineAccess(bus, silentLogger, 500).check(TIMELINE, USER)).rejects.toMatchObject({
      status: 503,
      message: 'Timelines service unavailable',
    });
  });
});
