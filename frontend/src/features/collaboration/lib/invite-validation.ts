/** A simple address pattern (spec 001, section 5): something@something.something, no spaces. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface InviteProblem {
  title: string;
  description: string;
}

/** The toast to show for an address that cannot be invited, or undefined when it can. */
export function checkInviteEmail(email: string): InviteProblem | undefined {
  const value = email.trim();
  if (!value) return { title: 'Email Required', description: 'Please enter an email address' };
  if (!EMAIL_PATTERN.test(value)) return { title: 'Invalid Email', description: 'Please enter a valid email address' };
  return undefined;
}
