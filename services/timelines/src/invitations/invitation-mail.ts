import type { MailMessage } from '@timeliner/platform';
import type { InvitationRole } from './invitation.entity.js';

export interface InvitationMailContent {
  to: string;
  inviterName: string;
  timelineTitle: string;
  role: InvitationRole;
  message: string | null;
  link: string;
  expiresAt: Date;
}

const ROLE_DESCRIPTIONS: Record<InvitationRole, string> = {
  editor: 'As an editor you can add and arrange videos.',
  viewer: 'As a viewer you can watch and comment.',
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The invitation e-mail: plain text first, the same in HTML. */
export function invitationMail(c: InvitationMailContent): MailMessage {
  const expires = c.expiresAt.toUTCString();
  const text = [
    `${c.inviterName} invited you to collaborate on the timeline "${c.timelineTitle}" as ${c.role === 'editor' ? 'an editor' : 'a viewer'}.`,
    ROLE_DESCRIPTIONS[c.role],
    ...(c.message ? ['', `Their message: ${c.message}`] : []),
    '',
    `Accept or decline the invitation: ${c.link}`,
    '',
    `The link works until ${expires}. If you did not expect this e-mail, you can ignore it.`,
  ].join('\n');
  const html = [
    `<p>${escapeHtml(c.inviterName)} invited you to collaborate on the timeline <strong>${escapeHtml(c.timelineTitle)}</strong> as ${c.role === 'editor' ? 'an editor' : 'a viewer'}.</p>`,
    `<p>${ROLE_DESCRIPTIONS[c.role]}</p>`,
    ...(c.message ? [`<blockquote>${escapeHtml(c.message)}</blockquote>`] : []),
    `<p><a href="${escapeHtml(c.link)}">Accept or decline the invitation</a></p>`,
    `<p>The link works until ${escapeHtml(expires)}. If you did not expect this e-mail, you can ignore it.</p>`,
  ].join('\n');
  return { to: c.to, subject: `${c.inviterName} invited you to "${c.timelineTitle}"`, text, html };
}
