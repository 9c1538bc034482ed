import { busEntities, personFilterCopyEntities } from '@timeliner/platform';
import { EmailChange } from './account/email-change.entity.js';
import { AccountDeletion, PurgedAccountSweep } from './deletion/account-deletion.entity.js';
import { Passkey, WebauthnChallenge } from './passkeys/passkey.entity.js';
import { PendingSignIn, RecoveryCode, TotpFactor } from './two-step/two-step.entity.js';
import { LikeTarget } from './counts/like-target.entity.js';
import { ProfileTimeline } from './counts/profile-timeline.entity.js';
import { RateLimitCounter } from './security/rate-limit.entity.js';
import { PasswordReset } from './sessions/password-reset.entity.js';
import { Session } from './sessions/session.entity.js';
import { User } from './users/user.entity.js';
import { ViewingPreference } from './preferences/viewing-preference.entity.js';

export const authEntities = [User, Session, PasswordReset, EmailChange, RateLimitCounter, LikeTarget, ProfileTimeline, TotpFactor, RecoveryCode, PendingSignIn, Passkey, WebauthnChallenge, ViewingPreference, AccountDeletion, PurgedAccountSweep, ...personFilterCopyEntities, ...busEntities];
