/** The query keys of blocks, mutes and muted words: every change here asks them again. */
export const SAFETY_KEY = ['safety'] as const;
export const blockedPeopleQueryKey = [...SAFETY_KEY, 'blocked'] as const;
export const mutedPeopleQueryKey = [...SAFETY_KEY, 'muted'] as const;
export const mutedWordsQueryKey = [...SAFETY_KEY, 'muted-words'] as const;
export const muteStatusQueryKey = (id: string) => [...SAFETY_KEY, 'mute-status', id] as const;
