import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface UploadResult {
  status: number;
  answer: { bytes: number; sha256: string };
  sha256: string;
}

/** Drives upload-peer-process.mjs: an upstream and an uploading client outside the test's process. */
export class UploadPeer {
  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly lines: AsyncIterator<string>,
    readonly upstreamUrl: string,
  ) {}

  static async start(): Promise<UploadPeer> {
    const script = fileURLToPath(new URL('./upload-peer-process.mjs', import.meta.url));
    const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'pipe'] });
    const reader: Interface = createInterface({ input: child.stdout });
    const lines = reader[Symbol.asyncIterator]();
    const first = await lines.next();
    const { upstream } = JSON.parse(String(first.value)) as { upstream: string };
    return new UploadPeer(child, lines, upstream);
  }

  async upload(url: string, size: number): Promise<UploadResult> {
    this.child.stdin.write(`${JSON.stringify({ upload: { url, size } })}\n`);
    const line = await this.lines.next();
    const result = JSON.parse(String(line.value)) as UploadResult & { error?: string };
    if (result.error) throw new Error(result.error);
    return result;
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end();
    await exited;
  }
}
