import type { ReactNode } from 'react';
import { useStaffRole } from '../api/get-staff-role';

/**
 * Its children for moderators and admins only (GET /api/moderation/role); nothing for everyone
 * else, nor while the answer is on its way. Asked when first drawn (the account menu opening),
 * not on every page.
 */
export function StaffOnly({ children }: { children: ReactNode }) {
  const role = useStaffRole();
  return role.data ? <>{children}</> : null;
}
