import { busEntities } from '@timeliner/platform';
import { LikeTarget } from './counts/like-target.entity.js';
import { ProfileTimeline } from './counts/profile-timeline.entity.js';
import { RateLimitCounter } from './security/rate-limit.entity.js';
import { PasswordReset } from './sessions/password-reset.entity.js';
import { Session } from './sessions/session.entity.js';
import { User } from './users/user.entity.js';

export const authEntities = [User, Session, PasswordReset, RateLimitCounter, LikeTarget, ProfileTimeline, ...busEntities];
