import type { CollaboratorRole } from '../collaborators/collaborator.entity.js';
import type { TimelineStatus, Visibility } from '../timelines/timeline.entity.js';

/**
 * Who may do what with a timeline: the one place that decides it. Every route and the
 * `TimelinesRpc.CheckAccess` responder go through `decide`.
 *
 * - Owner and collaborators (editor, viewer) always see the timeline.
 * - Anyone else, signed in or not, sees it only when it is published and public or unlisted,
 *   and its creator's account is not private (or they are one of its approved followers), and
 *   the creator and they have not blocked each other.
 * - A timeline the moderators hid, or whose creator is suspended, is seen by its owner alone; and,
 *   read in context (its page, its media: `staffInContext`), by staff (moderators, admins), so the
 *   desk's "Open in context" shows it to them, read-only: every other action stays hidden to them.
 *   Unlisted timelines are reachable by id (a shared link) but never appear in lists.
 * - Someone who may not see a timeline is told it does not exist (404), never 403: a private
 *   timeline's existence is not revealed.
 * - Someone who may see it but whose role does not allow the action gets 403.
 */
export interface AccessFacts {
  visibility: Visibility;
  status: TimelineStatus;
  /** The caller's role on the timeline; null for strangers and anonymous callers. */
  role: CollaboratorRole | null;
  /**
   * The creator's account is private and the caller is not one of its approved followers
   * (private-accounts/private-accounts.ts): the timeline is hidden whatever its visibility.
   */
  hiddenByPrivateAccount?: boolean;
  /** The creator and the caller are a blocked pair, either way (blocks/blocks.ts): hidden whatever its visibility. */
  hiddenByBlock?: boolean;
  /**
   * The moderators hid the timeline or suspended its creator (moderation/hidden-by-moderators.ts):
   * hidden from everyone but its owner, collaborators included.
   */
  hiddenByModerators?: boolean;
  /**
   * The caller is staff reading a timeline the moderators took out in context (asked of the social
   * service only then: timeline-access.service.ts). Lets them view it, and nothing else.
   */
  staffInContext?: boolean;
}

export type TimelineAction =
  /** Read it; record a view, share or download. */
  | 'view'
  /** See the collaborators. */
  | 'seeTeam'
  /** See the analytics. */
  | 'seeAnalytics'
  /** Settings, publishing, deletion, collaborators, invitations, ownership. */
  | 'manage';

export type AccessDecision = 'allow' | 'hidden' | 'forbidden';

const ROLES_ALLOWED: Record<Exclude<TimelineAction, 'view'>, readonly CollaboratorRole[]> = {
  seeTeam: ['owner', 'editor', 'viewer'],
  seeAnalytics: ['owner', 'editor'],
  manage: ['owner'],
};

export function canView(facts: AccessFacts): boolean {
  if (facts.hiddenByModerators) return facts.role === 'owner' || Boolean(facts.staffInContext);
  if (facts.role !== null) return true;
  if (facts.hiddenByPrivateAccount) return false;
  if (facts.hiddenByBlock) return false;
  return facts.status === 'published' && (facts.visibility === 'public' || facts.visibility === 'unlisted');
}

/** Whether the timeline appears in lists for a caller with no role on it. */
export function isListedForEveryone(facts: Pick<AccessFacts, 'visibility' | 'status'>): boolean {
  return facts.visibility === 'public' && facts.status === 'published';
}

/** Owners and editors change content (videos, order); used by other services through CheckAccess. */
export function canEditContent(role: CollaboratorRole | null): boolean {
  return role === 'owner' || role === 'editor';
}

export function decide(facts: AccessFacts, action: TimelineAction): AccessDecision {
  if (!canView(facts)) return 'hidden';
  if (facts.hiddenByModerators && facts.role !== 'owner' && action !== 'view') return 'hidden';
  if (action === 'view') return 'allow';
  return facts.role !== null && ROLES_ALLOWED[action].includes(facts.role) ? 'allow' : 'forbidden';
}

/** What a 403 says, per action. */
export const FORBIDDEN_MESSAGES: Record<Exclude<TimelineAction, 'view'>, string> = {
  seeTeam: 'Only collaborators can see the team of this timeline',
  seeAnalytics: 'Only the owner and editors can see the analytics of this timeline',
  manage: 'Only the owner of this timeline can do this',
};
