/** Longest post the server accepts. */
export const POST_MAX_LENGTH = 5000;
