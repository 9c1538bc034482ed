import { describe, expect, it, jest } from '@jest/globals';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { discardInterruptedUpload, findInterruptedUploads, type InterruptedUpload } from '../lib/interrupted-uploads';
import type { UploadItem } from '../lib/upload-manager';
import { InterruptedUploads } from './interrupted-uploads';

const TIMELINE = '7d9f0c3e-5a1b-4c2d-8e3f-1a2b3c4d5e6f';

/** A URL storage holding what tus-js-client writes for started uploads. */
function storageWith(entries: Array<{ key: string; metadata: Record<string, string>; size: number; creationTime: string; uploadUrl: string | null }>) {
  const kept = new Map(entries.map((e) => [e.key, e]));
  return {
    kept,
    findAllUploads: () =>
      Promise.resolve([...kept.values()].map((e) => ({ ...e, urlStorageKey: e.key, parallelUploadUrls: null }))),
    removeUpload: (key: string) => {
      kept.delete(key);
      return Promise.resolve();
    },
  };
}

describe('interrupted uploads', () => {
  const storage = storageWith([
    { key: 'tus::a::1', metadata: { timelineId: TIMELINE, filename: 'harbour.mp4', filetype: 'video/mp4' }, size: 70_000_000, creationTime: '2026-11-20T10:00:00.000Z', uploadUrl: 'http://localhost/api/uploads/1' },
    { key: 'tus::b::2', metadata: { timelineId: TIMELINE, filename: 'pier.mov', filetype: 'video/quicktime' }, size: 5_000_000, creationTime: '2026-11-21T10:00:00.000Z', uploadUrl: 'http://localhost/api/uploads/2' },
    { key: 'tus::c::3', metadata: { timelineId: 'another', filename: 'other.mp4' }, size: 1, creationTime: '2026-11-21T11:00:00.000Z', uploadUrl: 'http://localhost/api/uploads/3' },
    { key: 'tus::d::4', metadata: { timelineId: TIMELINE, filename: 'never-created.mp4' }, size: 1, creationTime: '2026-11-21T12:00:00.000Z', uploadUrl: null },
  ]);

  it("finds the timeline's unfinished uploads that reached the server, newest first", async () => {
    const found = await findInterruptedUploads(TIMELINE, storage);
    expect(found.map((u) => [u.fileName, u.size, u.uploadUrl])).toEqual([
      ['pier.mov', 5_000_000, 'http://localhost/api/uploads/2'],
      ['harbour.mp4', 70_000_000, 'http://localhost/api/uploads/1'],
    ]);
  });

  it('discarding terminates the upload on the server and forgets it, even when the server no longer has it', async () => {
    const [pier] = await findInterruptedUploads(TIMELINE, storage);
    const terminate = jest.fn((_url: string, _options: unknown) => Promise.reject(new Error('404')));
    await discardInterruptedUpload(pier!, storage, terminate);
    expect(terminate).toHaveBeenCalledWith('http://localhost/api/uploads/2', expect.anything());
    expect(storage.kept.has('tus::b::2')).toBe(false);
  });

  it('lists them until the same file is chosen again, and discards one on request', async () => {
    const entries: InterruptedUpload[] = [
      { key: 'k1', fileName: 'harbour.mp4', size: 70_000_000, startedAt: '2026-11-20T10:00:00.000Z', uploadUrl: 'u1' },
      { key: 'k2', fileName: 'pier.mov', size: 5_000_000, startedAt: '2026-11-21T10:00:00.000Z', uploadUrl: 'u2' },
    ];
    const discard = jest.fn((_upload: InterruptedUpload) => Promise.resolve());
    const find = () => Promise.resolve(entries);
    const { rerender } = render(<InterruptedUploads timelineId={TIMELINE} items={[]} find={find} discard={discard} />);
    expect(await screen.findByRole('heading', { name: '2 uploads were interrupted' })).toBeTruthy();
    expect(screen.getByText('Choose the same file again to continue where it stopped.')).toBeTruthy();

    const chosenAgain = { file: new File([new Uint8Array(8)], 'harbour.mp4'), status: 'uploading' } as UploadItem;
    Object.defineProperty(chosenAgain.file, 'size', { value: 70_000_000 });
    rerender(<InterruptedUploads timelineId={TIMELINE} items={[chosenAgain]} find={find} discard={discard} />);
    expect(screen.getByRole('heading', { name: 'An upload was interrupted' })).toBeTruthy();
    expect(screen.queryByText('harbour.mp4')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Discard the upload of pier.mov' }));
    expect(discard).toHaveBeenCalledWith(entries[1]!);
    await waitFor(() => expect(screen.queryByRole('heading', { name: /interrupted/ })).toBeNull());
  });
});
