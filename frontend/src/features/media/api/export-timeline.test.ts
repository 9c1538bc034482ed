import { describe, expect, it } from '@jest/globals';
import { jsonResponse } from '../../../testing/test-utils';
import { errorResponse, mockApi } from '../../../testing/api-mocks';
import { exportTimeline } from './export-timeline';

const EXPORT = '3c6f1a52-0e1b-4f7a-9d2c-5b8e7a1f0c44';
const noWait = { pollMs: 0, sleep: () => Promise.resolve() };

describe('exportTimeline', () => {
  it('sends the title and answers the download URL', async () => {
    const { requests } = mockApi({ 'POST /api/timelines/t1/export': jsonResponse(200, { downloadUrl: '/d', fileName: 'Trip.mp4', exportId: EXPORT }) });
    await expect(exportTimeline('t1', 'Trip', noWait)).resolves.toBe('/d');
    expect(requests.find((r) => r.url.endsWith('/export'))?.body).toEqual({ options: { title: 'Trip' } });
  });

  it('after a 202, asks where the export stands until it is done', async () => {
    const states = [{ status: 'processing' }, { status: 'processing' }, { status: 'completed', downloadUrl: '/later' }];
    const { requests } = mockApi({
      'POST /api/timelines/t1/export': jsonResponse(202, { exportId: EXPORT, status: 'queued' }),
      [`GET /api/exports/${EXPORT}`]: () => jsonResponse(200, { exportId: EXPORT, fileName: 'Trip.mp4', ...states.shift()! }),
    });
    await expect(exportTimeline('t1', 'Trip', noWait)).resolves.toBe('/later');
    expect(requests.filter((r) => r.url.endsWith(`/api/exports/${EXPORT}`))).toHaveLength(3);
  });

  it("fails with the worker's reason, and without an id or URL", async () => {
    mockApi({
      'POST /api/timelines/t1/export': jsonResponse(202, { exportId: EXPORT, status: 'queued' }),
      [`GET /api/exports/${EXPORT}`]: jsonResponse(200, { exportId: EXPORT, fileName: 'Trip.mp4', status: 'error', error: 'The video a.mp4 could not be read' }),
    });
    await expect(exportTimeline('t1', 'Trip', noWait)).rejects.toThrow('The video a.mp4 could not be read');
    mockApi({ 'POST /api/timelines/t2/export': jsonResponse(200, {}) });
    await expect(exportTimeline('t2', 'Trip', noWait)).rejects.toThrow('No download URL in the export response');
    mockApi({ 'POST /api/timelines/t3/export': errorResponse(400, 'No videos to export') });
    await expect(exportTimeline('t3', 'Trip', noWait)).rejects.toThrow('No videos to export');
  });
});
