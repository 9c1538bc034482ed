import { describe, expect, it } from '@jest/globals';
import { Realtime, type RealtimeMessage } from './realtime.js';

const timelineId = '0b0e7a52-3c41-4c8e-9a59-0a3f2e5d7c11';
const userId = '5d2c1a7e-9f4b-4b7e-8e0a-6c9d3f1b2a44';

describe('Realtime', () => {
  it('builds subjects per timeline and per user', () => {
    expect(Realtime.timelineSubject(timelineId)).toBe(`realtime.timeline.${timelineId}`);
    expect(Realtime.userSubject(userId.toUpperCase())).toBe(`realtime.user.${userId}`);
    expect(() => Realtime.timelineSubject('x.>')).toThrow(/UUID/);
  });

  it('parses the topics a socket subscribes to', () => {
    expect(Realtime.parseTopic(`timeline:${timelineId}`)).toEqual({ kind: 'timeline', id: timelineId });
    expect(Realtime.parseTopic(`user:${userId}`)).toEqual({ kind: 'user', id: userId });
    for (const bad of ['timeline:', 'timeline:42', `video:${timelineId}`, `timeline:${timelineId}:x`, timelineId]) {
      expect(Realtime.parseTopic(bad)).toBeNull();
    }
  });

  it('maps subjects back to topics', () => {
    const topic = Realtime.parseTopic(`timeline:${timelineId}`)!;
    expect(Realtime.topicOfSubject(Realtime.subjectOf(topic))).toEqual(topic);
    expect(Realtime.formatTopic(topic)).toBe(`timeline:${timelineId}`);
    expect(Realtime.topicOfSubject('realtime.timeline')).toBeNull();
    expect(Realtime.topicOfSubject(`auth.timeline.${timelineId}`)).toBeNull();
  });

  it('round-trips the spec message shapes as JSON text', () => {
    const message: RealtimeMessage = {
      type: 'video_processing_progress',
      timelineId,
      videoId: 'v1',
      progress: { stage: 'transcoding', progress: 40, message: 'Encoding 720p' },
    };
    const data = Realtime.encode(message);
    expect(JSON.parse(new TextDecoder().decode(data))).toEqual(message);
    expect(Realtime.decode(data)).toEqual(message);
  });

  it('rejects payloads that are not spec messages', () => {
    const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
    expect(() => Realtime.decode(encode({ type: 'nope', timelineId }))).toThrow(/Unknown/);
    expect(() => Realtime.decode(encode({ type: 'video_processing_error', videoId: 'v' }))).toThrow(/timelineId/);
    expect(() =>
      Realtime.decode(encode({ type: 'video_processing_progress', timelineId, videoId: 'v', progress: { stage: 's' } })),
    ).toThrow(/Malformed/);
    expect(() => Realtime.decode(new TextEncoder().encode('not json'))).toThrow();
  });

  it('carries a person\'s notifications and unread count without a timeline', () => {
    const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
    const notification = { id: 'n1', kind: 'like', count: 2, actors: [], read: false, link: `/watch/${timelineId}`, text: 'Ana and Ben liked your timeline' };
    expect(Realtime.decode(encode({ type: 'notification', notification, unreadCount: 3 }))).toMatchObject({ unreadCount: 3 });
    expect(Realtime.decode(encode({ type: 'notification_count', unreadCount: 0 }))).toEqual({ type: 'notification_count', unreadCount: 0 });
    expect(() => Realtime.decode(encode({ type: 'notification', notification: { id: 'n1' }, unreadCount: 3 }))).toThrow(/notification/);
    expect(() => Realtime.decode(encode({ type: 'notification_count' }))).toThrow(/unreadCount/);
  });
});
