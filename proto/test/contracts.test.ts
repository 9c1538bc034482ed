import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from '@jest/globals';

// The contracts guard themselves: the generated TypeScript matches the .proto files, the .proto
// files pass lint and format, and nothing breaks what main already published.
const protoDir = fileURLToPath(new URL('..', import.meta.url));
const repoDir = join(protoDir, '..');
const binDir = join(repoDir, 'node_modules', '.bin');
const buf = join(binDir, 'buf');
// buf.gen.yaml names the local plugin `protoc-gen-es`, found on PATH as under npm scripts.
const env = { ...process.env, PATH: `${binDir}${delimiter}${process.env.PATH ?? ''}` };

async function runBuf(args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(buf, args, { cwd: protoDir, env });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** True when main has a commit whose tree contains proto/ (the baseline for `buf breaking`). */
function mainHasProto(): boolean {
  try {
    const tree = execFileSync('git', ['ls-tree', '--name-only', 'main', '--', 'proto/'], {
      cwd: repoDir,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return tree.toString().trim().length > 0;
  } catch {
    return false;
  }
}

describe('proto contracts', () => {
  const tempDirs: string[] = [];
  afterAll(async () => {
    await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('generated code matches the .proto files (run `npm run generate -w @timeliner/proto`)', async () => {
    const out = await mkdtemp(join(tmpdir(), 'tl-proto-gen-'));
    tempDirs.push(out);
    const generated = await runBuf(['generate', '--output', out]);
    expect(generated).toMatchObject({ code: 0 });

    const committedDir = join(protoDir, 'src', 'gen');
    const freshDir = join(out, 'src', 'gen');
    const committed = await listFiles(committedDir);
    expect(committed).toEqual(await listFiles(freshDir));
    for (const file of committed) {
      const [mine, fresh] = await Promise.all([
        readFile(join(committedDir, file), 'utf8'),
        readFile(join(freshDir, file), 'utf8'),
      ]);
      expect({ file, content: mine }).toEqual({ file, content: fresh });
    }
  }, 30_000);

  it('passes buf lint', async () => {
    const lint = await runBuf(['lint']);
    expect(lint.output.trim()).toBe('');
    expect(lint.code).toBe(0);
  }, 30_000);

  it('is formatted (buf format)', async () => {
    const format = await runBuf(['format', '--diff', '--exit-code']);
    expect(format.output.trim()).toBe('');
    expect(format.code).toBe(0);
  }, 30_000);

  const baseline = mainHasProto();
  (baseline ? it : it.skip)(
    baseline
      ? 'makes no breaking change against main'
      : 'makes no breaking change against main (skipped: no commit on main contains proto/ yet)',
    async () => {
      const breaking = await runBuf(['breaking', '--against', `${join(repoDir, '.git')}#branch=main,subdir=proto`]);
      expect(breaking.output.trim()).toBe('');
      expect(breaking.code).toBe(0);
    },
    60_000,
  );
});
