import { Readable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import { fixedSizeChunks, readExactly } from './chunks.js';
import { SizeMismatchError } from './object-storage.port.js';

/** Consumes like the S3 adapter: copies each chunk before asking for the next. */
async function collect(body: Readable | Buffer, size: number): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const chunk of fixedSizeChunks(body, size)) out.push(Buffer.from(chunk));
  return out;
}

const bytes = (n: number): Buffer => Buffer.from(Array.from({ length: n }, (_, i) => i % 251));

describe('fixedSizeChunks', () => {
  it.each([0, 1, 9, 10, 11, 25, 30])('cuts a %i-byte stream into 10-byte chunks, whatever the read sizes', async (n) => {
    const data = bytes(n);
    const reads = [data.subarray(0, 3), data.subarray(3, 17), data.subarray(17)].filter((b) => b.length > 0);
    const chunks = await collect(Readable.from(reads), 10);
    expect(Buffer.concat(chunks).equals(data)).toBe(true);
    expect(chunks.slice(0, -1).every((c) => c.length === 10)).toBe(true);
    expect(chunks.length).toBe(Math.max(1, Math.ceil(n / 10)));
  });

  it('slices a Buffer body without copying', async () => {
    const data = bytes(25);
    const chunks = [];
    for await (const chunk of fixedSizeChunks(data, 10)) chunks.push(chunk);
    expect(chunks.map((c) => c.length)).toEqual([10, 10, 5]);
    expect(chunks[0]?.buffer).toBe(data.buffer);
  });

  it('reuses its pool of buffers, so two chunks ahead are distinct and the third is the first again', async () => {
    const seen = [];
    for await (const chunk of fixedSizeChunks(Readable.from([bytes(35)]), 10, 2)) seen.push(chunk);
    expect(seen[0]).not.toBe(seen[1]);
    expect(seen[2]).toBe(seen[0]);
  });
});

describe('readExactly', () => {
  it('reads a body of the declared size', async () => {
    const data = bytes(20);
    expect((await readExactly(Readable.from([data.subarray(0, 7), data.subarray(7)]), 20)).equals(data)).toBe(true);
  });

  it('rejects a shorter or longer body', async () => {
    await expect(readExactly(Readable.from([bytes(5)]), 6)).rejects.toBeInstanceOf(SizeMismatchError);
    await expect(readExactly(Readable.from([bytes(7)]), 6)).rejects.toBeInstanceOf(SizeMismatchError);
    await expect(readExactly(bytes(7), 6)).rejects.toBeInstanceOf(SizeMismatchError);
  });
});
