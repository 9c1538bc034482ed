/** Narrower than this is the mobile layout (spec 000, section 9). */
export const MOBILE_BREAKPOINT = 768;
