// Renders a kustomization with the real kustomize: the standalone `kustomize` binary if present,
// else the copy built into kubectl (`kubectl kustomize`, kustomize v5 in kubectl ≥ 1.27).
// No npm package ships kustomize, so one of the two must be on PATH; the error says so.
import { spawnSync } from 'node:child_process';
import { parseAllDocuments } from 'yaml';
import type { Resource } from './resource.js';

// `probe` must not talk to a cluster: a kubeconfig may point at a real one.
const CANDIDATES: { cmd: string; probe: string[]; args: (dir: string) => string[] }[] = [
  { cmd: 'kustomize', probe: ['version'], args: (dir) => ['build', dir] },
  { cmd: 'kubectl', probe: ['version', '--client'], args: (dir) => ['kustomize', dir] },
];

let found: (typeof CANDIDATES)[number] | null | undefined;

function renderer() {
  found ??= CANDIDATES.find(({ cmd, probe }) => spawnSync(cmd, probe, { stdio: 'ignore' }).status === 0) ?? null;
  if (!found) {
    throw new Error('Rendering k8s/ needs `kustomize` or `kubectl` (which embeds kustomize) on PATH; neither was found.');
  }
  return found;
}

/** The rendered resources of the kustomization in `dir`; throws with kustomize's own message on failure. */
export function kustomize(dir: string): Resource[] {
  const { cmd, args } = renderer();
  const result = spawnSync(cmd, args(dir), { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`${cmd} ${args(dir).join(' ')} failed:\n${result.stderr}`);
  return parseAllDocuments(result.stdout)
    .map((doc) => doc.toJS() as Resource | null)
    .filter((r): r is Resource => r !== null);
}

