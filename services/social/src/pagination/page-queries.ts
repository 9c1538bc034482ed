import { PageQuery } from '@timeliner/platform';

/**
 * The page sizes of this service's lists (the paging itself, the cursor and the next-cursor header
 * are the platform's: `PageQuery`, `encodeCursor`/`decodeCursor`, `sendPage`).
 */

/** The largest page any list gives. */
export const MAX_PAGE_SIZE = 100;

/** Posts, comments, collections and saved items: 50 a page unless asked otherwise. */
export const DEFAULT_PAGE_SIZE = 50;
export class PageQueryDto extends PageQuery({ defaultLimit: DEFAULT_PAGE_SIZE, maxLimit: MAX_PAGE_SIZE }) {}

/** A person's lists (followers, following, activity, timelines) are shorter pages: 20 unless asked otherwise. */
export const PERSON_LIST_PAGE_SIZE = 20;
export class PersonListQueryDto extends PageQuery({ defaultLimit: PERSON_LIST_PAGE_SIZE, maxLimit: MAX_PAGE_SIZE }) {}
