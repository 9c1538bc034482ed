import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { FakeWebSocket } from '../testing/fake-websocket';
import { defaultReconnectDelay, RealtimeClient, realtimeUrl } from './realtime';

function client(overrides: Partial<ConstructorParameters<typeof RealtimeClient>[0]> = {}) {
  const onConnectionFailure = jest.fn();
  const realtime = new RealtimeClient({
    url: () => 'ws://localhost/ws',
    getToken: () => 'secret-token',
    createSocket: (url) => new FakeWebSocket(url),
    reconnectDelay: (attempt) => 1000 * 2 ** attempt,
    onConnectionFailure,
    ...overrides,
  });
  return { realtime, onConnectionFailure };
}

const socket = () => {
  const latest = FakeWebSocket.latest();
  if (!latest) throw new Error('no socket');
  return latest;
};

describe('realtime client', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('uses ws, or wss under https, on the page host', () => {
    expect(realtimeUrl({ protocol: 'http:', host: 'example.com:8080' })).toBe('ws://example.com:8080/ws');
    expect(realtimeUrl({ protocol: 'https:', host: 'example.com' })).toBe('wss://example.com/ws');
  });

  it('sends the token as the first message, then subscribes once authenticated', () => {
    const { realtime } = client();
    realtime.subscribe('timeline:t1', () => undefined);
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(socket().url).toBe('ws://localhost/ws');
    socket().open();
    expect(socket().sent).toEqual([{ type: 'auth', token: 'secret-token' }]);
    socket().authenticate();
    expect(socket().sent[1]).toEqual({ type: 'subscribe', topic: 'timeline:t1' });
  });

  it('counts listeners per topic: one subscribe, and unsubscribe only after the last leaves', () => {
    const { realtime } = client();
    const first = jest.fn();
    const second = jest.fn();
    const stopFirst = realtime.subscribe('timeline:t1', first);
    const stopSecond = realtime.subscribe('timeline:t1', second);
    socket().connect();
    expect(socket().sent.filter((message) => message.type === 'subscribe')).toHaveLength(1);

    socket().receive({ type: 'video_upload_started', timelineId: 't1', video: { id: 'v1', originalName: 'a.mp4' } });
    socket().receive({ type: 'video_upload_started', timelineId: 't2', video: { id: 'v2', originalName: 'b.mp4' } });
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(1);

    stopFirst();
    stopFirst();
    expect(socket().sent.some((message) => message.type === 'unsubscribe')).toBe(false);
    stopSecond();
    expect(socket().sent.at(-1)).toEqual({ type: 'unsubscribe', topic: 'timeline:t1' });
  });

  it('reconnects with growing delays and subscribes again to every topic', () => {
    const { realtime, onConnectionFailure } = client();
    realtime.subscribe('timeline:t1', () => undefined);
    realtime.subscribe('timeline:t2', () => undefined);
    socket().connect();
    socket().close(1001);
    expect(FakeWebSocket.instances).toHaveLength(1);
    jest.advanceTimersByTime(1000);
    expect(FakeWebSocket.instances).toHaveLength(2);
    // The second socket fails before it is ready: the next try waits twice as long.
    socket().fail();
    jest.advanceTimersByTime(1999);
    expect(FakeWebSocket.instances).toHaveLength(2);
    jest.advanceTimersByTime(1);
    expect(FakeWebSocket.instances).toHaveLength(3);
    socket().connect();
    expect(socket().sent).toEqual([
      { type: 'auth', token: 'secret-token' },
      { type: 'subscribe', topic: 'timeline:t1' },
      { type: 'subscribe', topic: 'timeline:t2' },
    ]);
    // One failure notice for the page, however many attempts fail.
    socket().fail();
    jest.advanceTimersByTime(1000);
    socket().fail();
    expect(onConnectionFailure).toHaveBeenCalledTimes(1);
  });

  it('reports a socket that cannot even be made, once', () => {
    const { realtime, onConnectionFailure } = client({
      createSocket: () => {
        throw new Error('blocked');
      },
    });
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    realtime.subscribe('timeline:t1', () => undefined);
    jest.advanceTimersByTime(5000);
    expect(onConnectionFailure).toHaveBeenCalledTimes(1);
    expect(onConnectionFailure).toHaveBeenCalledWith('construct');
  });

  it('stops after the server refuses the token (4401)', () => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { realtime } = client();
    realtime.subscribe('timeline:t1', () => undefined);
    socket().open();
    socket().close(4401);
    jest.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('only warns when asked to send while not connected', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { realtime } = client();
    expect(realtime.send({ type: 'ping' })).toBe(false);
    expect(warn).toHaveBeenCalled();
  });

  it('does not connect without a token', () => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { realtime } = client({ getToken: () => null });
    realtime.subscribe('timeline:t1', () => undefined);
    expect(FakeWebSocket.instances).toHaveLength(0);
  });

  it('closes an idle socket after its last topic goes', () => {
    const { realtime } = client();
    const stop = realtime.subscribe('timeline:t1', () => undefined);
    socket().connect();
    stop();
    jest.advanceTimersByTime(10_000);
    expect(socket().readyState).toBe(FakeWebSocket.CLOSED);
  });

  it('spreads reconnect delays from 1 s up to 30 s', () => {
    expect(defaultReconnectDelay(0, () => 1)).toBe(1000);
    expect(defaultReconnectDelay(3, () => 1)).toBe(8000);
    expect(defaultReconnectDelay(10, () => 1)).toBe(30_000);
    expect(defaultReconnectDelay(0, () => 0)).toBe(800);
  });
});
