/** Items per page of a profile tab. */
export const USER_LIST_PAGE_SIZE = 20;

export interface UserListPage<T> {
  items: T[];
  nextCursor: string | null;
}
