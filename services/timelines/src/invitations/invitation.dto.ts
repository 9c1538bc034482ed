import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { CollaboratorDto } from '../collaborators/collaborator.dto.js';
import { type Invitation, INVITATION_ROLES, INVITATION_STATUSES, type InvitationRole, type InvitationStatus } from './invitation.entity.js';

const normaliseEmail = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value);

// Messages are the spec's (spec 001 section 5).
export class InviteDto {
  @ApiProperty({ format: 'email', maxLength: 254, example: 'grace@example.com' })
  @Transform(normaliseEmail)
  @IsString({ message: 'Please enter an email address' })
  @IsNotEmpty({ message: 'Please enter an email address' })
  @IsEmail({}, { message: 'Please enter a valid email address' })
  @MaxLength(254, { message: 'Please enter a valid email address' })
  email: string;

  @ApiPropertyOptional({ enum: INVITATION_ROLES, default: 'editor' })
  @IsOptional()
  @IsIn(INVITATION_ROLES, { message: 'Role must be viewer or editor' })
  role?: InvitationRole;

  @ApiPropertyOptional({ maxLength: 1000, description: 'A personal note shown in the e-mail and on the invitation page' })
  @IsOptional()
  @IsString({ message: 'Message must be text' })
  @MaxLength(1000, { message: 'Message must be at most 1000 characters' })
  message?: string;
}

export class InvitationDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() email: string;
  @ApiProperty({ enum: INVITATION_ROLES }) role: InvitationRole;
  @ApiProperty({ enum: INVITATION_STATUSES, description: '`expired` once expiresAt has passed' }) status: InvitationStatus;
  // The spec's name for it, in snake case.
  @ApiProperty() inviter_name: string;
  @ApiProperty({ type: String, nullable: true }) message: string | null;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

/** The answer to an invite or a resend: added at once (the address has an account) or e-mailed. */
export class InviteResultDto {
  @ApiProperty({ description: 'True when the address has an account and the person was added at once' }) userExists: boolean;
  @ApiPropertyOptional({ type: CollaboratorDto, description: 'When userExists' }) collaborator?: CollaboratorDto;
  @ApiPropertyOptional({ type: InvitationDto, description: 'When the invitation was e-mailed' }) invitation?: InvitationDto;
}

export class PublicInvitationDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() email: string;
  @ApiProperty({ enum: INVITATION_ROLES }) role: InvitationRole;
  @ApiProperty({ enum: INVITATION_STATUSES }) status: InvitationStatus;
  @ApiProperty() inviter_name: string;
  @ApiProperty({ type: String, nullable: true }) message: string | null;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}

export class InvitedTimelineDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() title: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty() creatorName: string;
}

/** What the invitation page shows, to anyone holding the link. */
export class InvitationDetailDto {
  @ApiProperty({ type: PublicInvitationDto }) invitation: PublicInvitationDto;
  @ApiProperty({ type: InvitedTimelineDto }) timeline: InvitedTimelineDto;
}

export class AcceptedTimelineDto {
  @ApiProperty({ format: 'uuid' }) id: string;
}

export class AcceptInvitationResultDto {
  @ApiProperty({ type: AcceptedTimelineDto }) timeline: AcceptedTimelineDto;
}

export class InvitationExpiredDto {
  @ApiProperty({ example: 410 }) statusCode: number;
  @ApiProperty({ example: 'Gone' }) error: string;
  @ApiProperty({ example: 'This invitation has expired. Please ask for a new one.' }) message: string;
  @ApiProperty({ example: true }) expired: boolean;
}

/** Pending invitations past their expiry read as expired; nothing needs to rewrite them. */
export const effectiveStatus = (invitation: Pick<Invitation, 'status' | 'expiresAt'>, now = new Date()): InvitationStatus =>
  invitation.status === 'pending' && invitation.expiresAt.getTime() <= now.getTime() ? 'expired' : invitation.status;

export const mapInvitation = (i: Invitation): InvitationDto => ({
  id: i.id,
  email: i.email,
  role: i.role,
  status: effectiveStatus(i),
  inviter_name: i.inviterName,
  message: i.message,
  expiresAt: i.expiresAt.toISOString(),
  createdAt: i.createdAt.toISOString(),
});

export const mapPublicInvitation = (i: Invitation): PublicInvitationDto => ({
  id: i.id,
  email: i.email,
  role: i.role,
  status: effectiveStatus(i),
  inviter_name: i.inviterName,
  message: i.message,
  expiresAt: i.expiresAt.toISOString(),
});
