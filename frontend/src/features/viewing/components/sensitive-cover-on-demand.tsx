import { lazy, Suspense } from 'react';
import type { SensitiveCoverProps } from './sensitive-cover';

const SensitiveCover = lazy(() => import('./sensitive-cover').then((module) => ({ default: module.SensitiveCover })));

/**
 * The sensitive cover for lists of cards: what is not marked sensitive renders at once, and only a
 * sensitive item loads the cover's code (a feed's first paint sends none of it). While it loads,
 * an empty cover stands in its place, so nothing sensitive flashes by.
 */
export function SensitiveCoverOnDemand(props: SensitiveCoverProps) {
  if (!props.sensitive) return <>{props.children}</>;
  return (
    <Suspense fallback={<div className={`sensitive-cover${props.className ? ` ${props.className}` : ''}`} aria-busy="true" />}>
      <SensitiveCover {...props} />
    </Suspense>
  );
}
