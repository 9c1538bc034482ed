import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createObjectStorage } from '../../src/storage/storage.factory.js';
import { objectStorageContract } from './object-storage.contract.js';

/**
 * The S3 adapter against s3rver, an S3 stand-in (no MinIO installs here), in a child process.
 * Where s3rver falls short of S3 the contract marks the test as a known gap of the stand-in; the
 * fs run covers that behaviour, and a run against MinIO would need no gaps at all.
 */
let server: ChildProcess | undefined;
let directory: string | undefined;

async function startS3rver(dir: string): Promise<{ process: ChildProcess; port: number }> {
  const script = fileURLToPath(new URL('./s3rver-process.mjs', import.meta.url));
  const child = fork(script, [dir], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const [message] = (await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(([code]) => Promise.reject(new Error(`s3rver exited with code ${code}`))),
  ])) as [{ port: number }];
  return { process: child, port: message.port };
}

objectStorageContract('s3 (s3rver)', {
  async setup() {
    directory = await mkdtemp(join(tmpdir(), 's3rver-'));
    const started = await startS3rver(directory);
    server = started.process;
    const storage = await createObjectStorage({
      S3_ENDPOINT: `http://127.0.0.1:${started.port}`,
      S3_ACCESS_KEY: 'S3RVER',
      S3_SECRET_KEY: 'S3RVER',
      S3_BUCKET: 'contract',
      DATA_DIR: directory,
    });
    if (storage.kind !== 's3') throw new Error('expected the s3 adapter');
    return storage;
  },
  async teardown() {
    if (server && server.exitCode === null) {
      const exited = once(server, 'exit');
      server.disconnect();
      await exited;
    }
    if (directory) await rm(directory, { recursive: true, force: true });
  },
  gaps: {
    'range-first-byte': 's3rver answers Range: bytes=0-0 with the whole object',
    'list-key-order': 's3rver lists keys in directory-walk order, not byte order',
    'verify-part-etags': 's3rver does not compare part etags on CompleteMultipartUpload',
    'min-part-size': 's3rver does not enforce the 5 MiB minimum part size (EntityTooSmall)',
    'unknown-upload-id': 's3rver accepts parts for any upload id, even one never issued or already completed',
    'abort-multipart': 's3rver lacks AbortMultipartUpload (405)',
    'list-multipart-uploads': 's3rver lacks ListMultipartUploads (501)',
  },
});
