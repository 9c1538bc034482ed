import { describe, expect, it } from '@jest/globals';
import { parseClientMessage } from './client-message.js';

const parse = (text: string, binary = false) => parseClientMessage(Buffer.from(text), binary);

describe('parseClientMessage', () => {
  it('reads the protocol messages', () => {
    expect(parse('{"type":"auth","token":"t"}')).toEqual({ ok: true, message: { type: 'auth', token: 't' } });
    expect(parse('{"type":"subscribe","topic":"user:1"}')).toEqual({ ok: true, message: { type: 'subscribe', topic: 'user:1' } });
    expect(parse('{"type":"unsubscribe","topic":"user:1"}')).toMatchObject({ ok: true });
    expect(parse('{"type":"ping"}')).toEqual({ ok: true, message: { type: 'ping' } });
  });

  it('treats garbage as fatal and unknown types as answerable', () => {
    expect(parse('not json')).toMatchObject({ ok: false, fatal: true });
    expect(parse('[1]')).toMatchObject({ ok: false, fatal: true });
    expect(parse('{"type":"auth"}')).toMatchObject({ ok: false, fatal: true });
    expect(parse('{"type":"auth","token":"t"}', true)).toMatchObject({ ok: false, fatal: true });
    expect(parse('{"type":"hello"}')).toEqual({ ok: false, fatal: false, reason: 'Unknown message type' });
    expect(parse('{"type":"subscribe"}')).toMatchObject({ ok: false, fatal: false });
  });
});
