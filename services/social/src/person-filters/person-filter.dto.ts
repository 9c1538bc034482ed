import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { MUTED_WORD_DURATIONS, MUTED_WORD_MAX_LENGTH, type MutedWordDuration } from '@timeliner/platform';
import { UNKNOWN_USER } from '../users/user-names.js';
import { mapUserSummary } from '../users/user-summary.dto.js';
import type { FilteredPersonRow, MutedWordRow } from './person-filter.repository.js';

/** The most muted words and hashtags one person may have at once. */
export const MAX_MUTED_WORDS = 200;

/** `POST /api/users/{id}/block`, `DELETE` likewise. */
export class BlockStatusDto {
  @ApiProperty({ description: 'Whether the caller has blocked the person' }) blocked: boolean;
}

/** `GET|POST|DELETE /api/users/{id}/mute`. */
export class MuteStatusDto {
  @ApiProperty({ description: 'Whether the caller has muted the person (the person is never told)' }) muted: boolean;
}

/** One person of the caller's blocked or muted accounts (settings). */
export class FilteredPersonDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'Empty until this service has heard of the person' }) username: string;
  @ApiProperty({ description: `"${UNKNOWN_USER}" until this service has heard of the person` }) displayName: string;
  @ApiProperty({ type: String, nullable: true }) avatar: string | null;
  @ApiProperty({ format: 'date-time', description: 'When the caller blocked or muted them' }) since: string;
}

/** `POST /api/muted-words`. */
export class MuteWordDto {
  @ApiProperty({ maxLength: MUTED_WORD_MAX_LENGTH, description: "A word, a phrase or a hashtag ('#' kept); matched as a whole word in any case", example: '#spoilers' })
  @IsString({ message: 'Word must be text' })
  @MaxLength(MUTED_WORD_MAX_LENGTH * 2, { message: `A muted word may be at most ${MUTED_WORD_MAX_LENGTH} characters` })
  word: string;

  @ApiPropertyOptional({ enum: MUTED_WORD_DURATIONS, default: 'forever', description: 'For 24 hours (day), 7 days (week), or until removed (forever)' })
  @IsOptional()
  @IsIn([...MUTED_WORD_DURATIONS], { message: `Duration must be one of ${MUTED_WORD_DURATIONS.join(', ')}` })
  duration?: MutedWordDuration;
}

/** One muted word or hashtag. */
export class MutedWordDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: "Lower-case; a hashtag keeps its '#'" }) word: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When it stops hiding things; null: until removed' }) expiresAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export const mapFilteredPerson = (row: FilteredPersonRow): FilteredPersonDto => {
  const { id, username, displayName, avatar } = mapUserSummary(row.userId, row.person);
  return { id, username, displayName, avatar, since: row.since.toISOString() };
};

export const mapMutedWord = (row: MutedWordRow): MutedWordDto => ({ id: row.id, word: row.word, expiresAt: row.expiresAt ? row.expiresAt.toISOString() : null, createdAt: row.createdAt.toISOString() });
