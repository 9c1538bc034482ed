import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect } from '@jest/globals';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

export interface Violation {
  id: string;
  impact: string | null;
  /** `rule (impact): target: what fails`, one per offending element. */
  summary: string;
}

/** axe-core's WCAG 2.1 A and AA rules and its best practices, on the page as it stands: one entry per offending element. */
export async function axeViolations(page: Page): Promise<Violation[]> {
  const result = await page.evaluate(async (source) => {
    if (!(window as unknown as { axe?: unknown }).axe) (0, eval)(source);
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[]; passes: unknown[] }> } }).axe;
    return axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
  }, axeSource);
  // The checks did run (a page with a heading, landmarks, buttons and links passes dozens of rules).
  expect(result.passes.length).toBeGreaterThan(10);
  return result.violations.flatMap((v) =>
    v.nodes.map((node) => ({ id: v.id, impact: v.impact, summary: `${v.id} (${v.impact}): ${node.target.join(' ')}: ${(node.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 200)}` })),
  );
}
