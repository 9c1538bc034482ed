import { describe, expect, it } from '@jest/globals';
import type { CollaboratorRole } from '../collaborators/collaborator.entity.js';
import type { TimelineStatus, Visibility } from '../timelines/timeline.entity.js';
import { type AccessDecision, canEditContent, canView, decide, isListedForEveryone, type TimelineAction } from './timeline-access.js';

type Who = 'nobody' | CollaboratorRole;
const roleOf = (who: Who): CollaboratorRole | null => (who === 'nobody' ? null : who);
const states: Array<[string, Visibility, TimelineStatus]> = [
  ['private draft', 'private', 'draft'],
  ['private published', 'private', 'published'],
  ['unlisted draft', 'unlisted', 'draft'],
  ['unlisted published', 'unlisted', 'published'],
  ['public draft', 'public', 'draft'],
  ['public processing', 'public', 'processing'],
  ['public published', 'public', 'published'],
];

// Whom each timeline state shows itself to when they have no role on it.
const visibleToNobody: Record<string, boolean> = {
  'private draft': false,
  'private published': false,
  'unlisted draft': false,
  'unlisted published': true,
  'public draft': false,
  'public processing': false,
  'public published': true,
};

// The decision for a caller who can see the timeline.
const whenVisible: Record<TimelineAction, Record<Who, AccessDecision>> = {
  view: { nobody: 'allow', viewer: 'allow', editor: 'allow', owner: 'allow' },
  seeTeam: { nobody: 'forbidden', viewer: 'allow', editor: 'allow', owner: 'allow' },
  seeAnalytics: { nobody: 'forbidden', viewer: 'forbidden', editor: 'allow', owner: 'allow' },
  manage: { nobody: 'forbidden', viewer: 'forbidden', editor: 'forbidden', owner: 'allow' },
};

describe('timeline access policy', () => {
  const cases = states.flatMap(([name, visibility, status]) =>
    (['nobody', 'viewer', 'editor', 'owner'] as Who[]).flatMap((who) =>
      (Object.keys(whenVisible) as TimelineAction[]).map((action) => ({ name, visibility, status, who, action })),
    ),
  );

  it.each(cases)('$who, $name, $action', ({ name, visibility, status, who, action }) => {
    const facts = { visibility, status, role: roleOf(who) };
    const visible = who !== 'nobody' || visibleToNobody[name]!;
    expect(canView(facts)).toBe(visible);
    expect(decide(facts, action)).toBe(visible ? whenVisible[action][who] : 'hidden');
  });

  it('lists only published public timelines for everyone', () => {
    expect(states.filter(([, visibility, status]) => isListedForEveryone({ visibility, status })).map(([n]) => n)).toEqual(['public published']);
  });

  it('lets owners and editors edit content', () => {
    expect([null, 'viewer', 'editor', 'owner'].map((r) => canEditContent(r as CollaboratorRole | null))).toEqual([false, false, true, true]);
  });

  it('shows a timeline the moderators took out to its owner, and to staff reading it in context for view only', () => {
    const taken = { visibility: 'public' as Visibility, status: 'published' as TimelineStatus, hiddenByModerators: true };
    const actions = Object.keys(whenVisible) as TimelineAction[];
    expect(actions.map((a) => decide({ ...taken, role: 'owner' }, a))).toEqual(['allow', 'allow', 'allow', 'allow']);
    expect(actions.map((a) => decide({ ...taken, role: null }, a))).toEqual(['hidden', 'hidden', 'hidden', 'hidden']);
    expect(actions.map((a) => decide({ ...taken, role: 'editor' }, a))).toEqual(['hidden', 'hidden', 'hidden', 'hidden']);
    expect(actions.map((a) => decide({ ...taken, role: null, staffInContext: true }, a))).toEqual(['allow', 'hidden', 'hidden', 'hidden']);
    expect(actions.map((a) => decide({ ...taken, role: 'editor', staffInContext: true }, a))).toEqual(['allow', 'hidden', 'hidden', 'hidden']);
  });
});

