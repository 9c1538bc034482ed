import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import { CanonicalId } from '@timeliner/platform';
import { type Collaborator, COLLABORATOR_ROLES, type CollaboratorRole } from './collaborator.entity.js';

export class CollaboratorDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty() userName: string;
  @ApiProperty({ enum: COLLABORATOR_ROLES }) role: CollaboratorRole;
  @ApiProperty({ example: 'active' }) status: string;
  @ApiProperty({ format: 'date-time' }) joinedAt: string;
}

export class TransferOwnershipDto {
  @ApiProperty({ format: 'uuid', description: 'User id of an active collaborator' })
  @CanonicalId()
  @IsUUID('all', { message: 'The new owner must be a collaborator' })
  newOwnerId: string;
}

export const mapCollaborator = (c: Collaborator): CollaboratorDto => ({
  id: c.id,
  userId: c.userId,
  userName: c.userName,
  role: c.role,
  status: c.status,
  joinedAt: c.joinedAt.toISOString(),
});
