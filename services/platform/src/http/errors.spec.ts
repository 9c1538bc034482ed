import { describe, expect, it } from '@jest/globals';
import { NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import type { ArgumentsHost } from '@nestjs/common';
import type { Logger } from 'pino';
import { HttpErrorFilter, toErrorBody } from './errors.js';

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

function harness() {
  const lines: Array<{ level: string; message: string; context: Record<string, unknown> }> = [];
  const at = (level: string) => (context: Record<string, unknown>, message: string) => void lines.push({ level, message, context });
  const logger = { warn: at('warn'), error: at('error'), info: at('info') } as unknown as Logger;
  let now = 0;
  const filter = new HttpErrorFilter(logger, () => now);
  const answer = () => {
    const sent: { status?: number; headers: Record<string, string>; body?: unknown } = { headers: {} };
    const reply = {
      sent: false,
      hasHeader: (name: string) => name in sent.headers,
      header(name: string, value: string) {
        sent.headers[name] = value;
        return reply;
      },
      status(code: number) {
        sent.status = code;
        return reply;
      },
      send(body: unknown) {
        sent.body = body;
        return reply;
      },
    };
    const host = { switchToHttp: () => ({ getResponse: () => reply }) } as unknown as ArgumentsHost;
    return { host, sent };
  };
  return { lines, filter, answer, advance: (ms: number) => (now += ms) };
}

describe('errors', () => {
  it('answers an unreachable database with 503 and Retry-After, never 500', () => {
    const { filter, answer } = harness();
    const { host, sent } = answer();
    filter.catch(refused(), host);
    expect(sent.status).toBe(503);
    expect(sent.headers['retry-after']).toBe('2');
    expect(sent.body).toMatchObject({ statusCode: 503, message: 'The service is temporarily unavailable, try again shortly' });
  });

  it('logs an outage once when it starts, then once per 30 s with a count, not once per request', () => {
    const { filter, answer, lines, advance } = harness();
    for (let i = 0; i < 1000; i++) {
      filter.catch(refused(), answer().host);
      advance(25);
    }
    // 25 s of failures: one line.
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'warn', message: 'dependency unavailable; requests answered 503 with Retry-After' });
    for (let i = 0; i < 400; i++) {
      filter.catch(new ServiceUnavailableException('Timelines service unavailable'), answer().host);
      advance(25);
    }
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ message: 'dependency still unavailable; requests answered 503' });
    expect(lines[1]!.context.answered503).toBeGreaterThan(100);
  });

  it('keeps client errors and real bugs as they were', () => {
    expect(toErrorBody(new NotFoundException('Timeline not found'))).toMatchObject({ statusCode: 404, message: 'Timeline not found' });
    expect(toErrorBody(new TypeError('x is undefined'))).toMatchObject({ statusCode: 500, message: 'Internal server error' });
  });
});
