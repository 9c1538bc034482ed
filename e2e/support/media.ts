import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { callApi } from './accounts.js';
import { eventually } from './watch.js';

/** A silent 640x360 H.264 clip of `seconds`, made by ffmpeg in a scratch folder. */
export function makeClip(name: string, seconds: number): string {
  const clip = path.join(mkdtempSync(path.join(os.tmpdir(), 'tl-e2e-clip-')), name);
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25', '-t', String(seconds), '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', clip]);
  return clip;
}

/**
 * A public timeline of `token`'s holder with `clip` uploaded through the API, processed to the
 * end (every rendition), then published. Resolves to the timeline's id.
 */
export async function publishedTimelineWithClip(baseUrl: string, token: string, title: string, clip: string): Promise<string> {
  const created = await callApi<{ id: string }>(baseUrl, 'POST', '/api/timelines', { token, body: { title, visibility: 'public' } });
  if (created.status !== 201) throw new Error(`creating the timeline answered ${created.status}`);
  const id = created.body.id;
  const form = new FormData();
  form.append('video', new Blob([readFileSync(clip)], { type: 'video/mp4' }), path.basename(clip));
  const upload = await fetch(`${baseUrl}/api/timelines/${id}/videos`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  if (upload.status !== 201) throw new Error(`the upload answered ${upload.status}: ${await upload.text()}`);
  await eventually(
    'the clip processed',
    async () => {
      const videos = await callApi<Array<{ status: string }>>(baseUrl, 'GET', `/api/timelines/${id}/videos`, { token });
      if (videos.body[0]?.status === 'failed') throw new Error('the clip failed to process');
      return videos.body[0]?.status === 'completed' || undefined;
    },
    90_000,
  );
  const published = await callApi(baseUrl, 'PATCH', `/api/timelines/${id}`, { token, body: { status: 'published' } });
  if (published.status !== 200) throw new Error(`publishing answered ${published.status}`);
  return id;
}
