import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The folders of src/ import each other in one direction only: the feed reads posts (their card)
 * and writes nothing of theirs, posts and the other writers share the feed's index through
 * feed-index/, and no chain of imports between folders comes back to where it started.
 */
const src = import.meta.dirname;

/** Every .ts file of src/, relative to it. */
const sources = (dir = src): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') ? [path.relative(src, full)] : [];
  });

/** A file's folder under src/, or the file itself for the files at the top. */
const unitOf = (file: string): string => file.split(path.sep)[0]!;

const RELATIVE_IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s+'(\.{1,2}\/[^']+)'/g;

/** Folder → the folders it imports (type-only imports too), from the files' own text. */
function folderImports(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sources()) {
    const from = unitOf(file);
    for (const [, target] of readFileSync(path.join(src, file), 'utf8').matchAll(RELATIVE_IMPORT)) {
      const to = unitOf(path.relative(src, path.resolve(src, path.dirname(file), target!)));
      if (to === from) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from)!.add(to);
    }
  }
  return graph;
}

/** One path of imports that comes back to its start, for each folder on such a cycle. */
function cycles(graph: Map<string, Set<string>>): string[] {
  const found: string[] = [];
  const walk = (start: string, at: string, trail: string[], seen: Set<string>) => {
    for (const next of graph.get(at) ?? []) {
      if (next === start) found.push([...trail, start].join(' → '));
      else if (!seen.has(next)) walk(start, next, [...trail, next], new Set([...seen, next]));
    }
  };
  for (const start of graph.keys()) walk(start, start, [start], new Set([start]));
  return found;
}

describe('imports between the folders of src/', () => {
  const graph = folderImports();

  it('reads the imports it checks', () => {
    expect(graph.get('posts')).toContain('feed-index');
    expect(graph.get('feed')).toContain('posts');
  });

  it('posts and the feed index never import the feed', () => {
    expect(graph.get('posts')).not.toContain('feed');
    expect(graph.get('feed-index') ?? new Set()).not.toContain('feed');
    expect(graph.get('feed-index') ?? new Set()).not.toContain('posts');
  });

  it('has no cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });
});
