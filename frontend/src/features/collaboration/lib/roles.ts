export type CollaboratorRole = 'owner' | 'editor' | 'viewer';

const ROLES: Record<CollaboratorRole, { label: string; description: string }> = {
  owner: { label: 'Owner', description: 'Full control: settings, publishing, the team and deleting the timeline.' },
  editor: { label: 'Editor', description: 'Can edit the timeline and upload videos.' },
  viewer: { label: 'Viewer', description: 'Can watch the timeline and comment on it.' },
};

export function roleLabel(role: CollaboratorRole): string {
  return ROLES[role]?.label ?? role;
}

export function roleDescription(role: CollaboratorRole): string {
  return ROLES[role]?.description ?? '';
}

/** The roles an invitation may offer (spec 001, section 6), editor first as the default. */
export const INVITE_ROLE_OPTIONS = [
  { value: 'editor', label: 'Editor – can edit and upload' },
  { value: 'viewer', label: 'Viewer – can watch and comment' },
] as const;
