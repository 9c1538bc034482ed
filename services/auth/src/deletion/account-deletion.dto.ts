import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';

/** How long a deletion waits before everything goes: the owner may still change their mind. */
export const DELETION_GRACE_DAYS = 30;

export const CANCEL_LINK_EXPIRED = 'This offer to cancel the deletion has expired. Please sign in again.';

export class DeletionRequestedDto {
  @ApiProperty({ format: 'date-time', description: 'When the account and everything it made are deleted for good, unless the deletion is cancelled by signing in before then' })
  purgeAfter: string;
}

export class DeletionPendingChallengeDto {
  @ApiProperty({ description: 'Opaque token for POST /api/auth/account/deletion/cancel; it works for ten minutes' }) token: string;
  @ApiProperty({ format: 'date-time', description: 'When the account is deleted for good if the deletion is not cancelled' }) purgeAfter: string;
  @ApiProperty({ description: 'What to tell the person' }) message: string;
}

/** The sign-in was right, but the account is waiting to be deleted: no session unless the deletion is cancelled. */
export class DeletionPendingDto {
  @ApiProperty({ type: DeletionPendingChallengeDto }) deletionPending: DeletionPendingChallengeDto;
}

export class CancelDeletionDto {
  @ApiProperty({ description: 'The token the sign-in answered with' })
  @IsString({ message: CANCEL_LINK_EXPIRED })
  @Matches(/^[A-Za-z0-9_-]{43}$/, { message: CANCEL_LINK_EXPIRED })
  token: string;
}

/** "28 December 2026" */
export const longDate = (date: Date): string => date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

export const deletionPendingMessage = (purgeAfter: Date): string =>
  `Your account is scheduled to be deleted on ${longDate(purgeAfter)}. Cancel the deletion to keep your account and sign in.`;
