import type { ReactNode } from 'react';
import './badge.css';

export type BadgeTone = 'neutral' | 'brand' | 'success' | 'warning' | 'danger';

/** A short label beside a title: a status, a visibility, a role. */
export function Badge({ tone = 'neutral', children }: { tone?: BadgeTone; children: ReactNode }) {
  return <span className={`badge badge--${tone}`}>{children}</span>;
}
