import type { BadgeTone } from '../../../components/ui/badge';
import type { TimelineRole, TimelineStatus, TimelineVisibility } from '../api/get-timeline';

export const VISIBILITY_OPTIONS: readonly { value: TimelineVisibility; label: string; description: string }[] = [
  { value: 'private', label: 'Private', description: 'Only you and your collaborators can see it.' },
  { value: 'public', label: 'Public', description: 'Anyone can find and watch it.' },
  { value: 'unlisted', label: 'Unlisted', description: 'Anyone with the link can watch it; it is not listed.' },
];

export function visibilityLabel(visibility: TimelineVisibility): string {
  return VISIBILITY_OPTIONS.find((option) => option.value === visibility)?.label ?? visibility;
}

export function visibilityTone(visibility: TimelineVisibility): BadgeTone {
  if (visibility === 'public') return 'success';
  if (visibility === 'unlisted') return 'brand';
  return 'neutral';
}

const STATUS_LABELS: Record<TimelineStatus, string> = { draft: 'Draft', processing: 'Processing', published: 'Published' };

export function statusLabel(status: TimelineStatus): string {
  return STATUS_LABELS[status] ?? 'Draft';
}

export function statusTone(status: TimelineStatus): BadgeTone {
  if (status === 'published') return 'success';
  if (status === 'processing') return 'warning';
  return 'neutral';
}

const ROLE_LABELS: Record<TimelineRole, string> = { owner: 'Owner', editor: 'Editor', viewer: 'Viewer' };

export function roleLabel(role: TimelineRole): string {
  return ROLE_LABELS[role] ?? role;
}

/** Owners and editors work on a timeline in the studio; viewers watch it. */
export function canEditTimeline(role: TimelineRole | null | undefined): boolean {
  return role === 'owner' || role === 'editor';
}
