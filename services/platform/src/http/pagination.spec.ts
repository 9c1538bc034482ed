import { describe, expect, it } from '@jest/globals';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { PageCursor, PageQuery, sendPage } from './pagination.js';

class ListQueryDto extends PageQuery({ defaultLimit: 20, maxLimit: 50 }) {}

class SearchishQueryDto extends PageQuery({ maxLimit: 10 }) {
  @PageCursor('The X-Next-Cursor header of the previous page (same q)')
  declare cursor?: string;
}

const messages = (cls: new () => object, query: Record<string, unknown>): string[] =>
  validateSync(plainToInstance(cls, query)).flatMap((error) => Object.values(error.constraints ?? {}));

describe('page queries', () => {
  it('takes a limit from 1 to the maximum, from query text', () => {
    expect(messages(ListQueryDto, {})).toEqual([]);
    expect(messages(ListQueryDto, { limit: '50', cursor: 'abc' })).toEqual([]);
    expect(plainToInstance(ListQueryDto, { limit: '7' }).limit).toBe(7);
    for (const limit of ['0', '51', '1.5', 'ten']) {
      expect(new Set(messages(ListQueryDto, { limit }))).toEqual(new Set(['Limit must be a whole number from 1 to 50']));
    }
    expect(new Set(messages(SearchishQueryDto, { limit: '11' }))).toEqual(new Set(['Limit must be a whole number from 1 to 10']));
  });

  it('refuses a cursor that is not text or longer than any cursor made', () => {
    expect(new Set(messages(ListQueryDto, { cursor: 'a'.repeat(201) }))).toEqual(new Set(['Invalid cursor']));
    expect(new Set(messages(ListQueryDto, { cursor: ['a', 'b'] }))).toEqual(new Set(['Invalid cursor']));
    expect(messages(SearchishQueryDto, { cursor: 'a'.repeat(200) })).toEqual([]);
  });

  it('sends the items as the body and the next cursor as a header, only when there is a next page', () => {
    const headers: Record<string, string> = {};
    const reply = { header: (name: string, value: string) => (headers[name] = value) } as unknown as Parameters<typeof sendPage>[0];
    expect(sendPage(reply, { items: [1, 2] })).toEqual([1, 2]);
    expect(headers).toEqual({});
    expect(sendPage(reply, { items: [3], nextCursor: 'next' })).toEqual([3]);
    expect(headers).toEqual({ 'x-next-cursor': 'next' });
  });
});
