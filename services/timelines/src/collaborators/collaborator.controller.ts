import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiForbiddenResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCaller, SignedIn, type SignedInCaller } from '@timeliner/platform';
import { TransferOwnershipResultDto } from '../timelines/timeline.dto.js';
import { CollaboratorDto, TransferOwnershipDto } from './collaborator.dto.js';
import { CollaboratorService } from './collaborator.service.js';

@ApiTags('collaboration')
@Controller('api/timelines/:id')
@SignedIn()
export class CollaboratorController {
  constructor(private readonly collaborators: CollaboratorService) {}

  @Get('collaborators')
  @ApiOperation({ summary: 'The team of a timeline, owner first (collaborators only)' })
  @ApiOkResponse({ type: [CollaboratorDto] })
  @ApiForbiddenResponse({ description: 'Not a collaborator' })
  @ApiNotFoundResponse({ description: 'Timeline not found' })
  list(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<CollaboratorDto[]> {
    return this.collaborators.list(caller, id);
  }

  @Delete('collaborators/:userId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a collaborator (owner; not the owner)' })
  @ApiNoContentResponse()
  @ApiBadRequestResponse({ description: 'The owner cannot be removed' })
  @ApiForbiddenResponse({ description: 'Not the owner' })
  @ApiNotFoundResponse({ description: 'Timeline or collaborator not found' })
  remove(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Param('userId') userId: string): Promise<void> {
    return this.collaborators.remove(caller, id, userId);
  }

  @Post('leave')
  @HttpCode(204)
  @ApiOperation({ summary: 'Leave a timeline you collaborate on (editor or viewer; the owner transfers ownership first)' })
  @ApiNoContentResponse({ description: 'Left: no longer on the team' })
  @ApiBadRequestResponse({ description: 'The owner cannot leave' })
  @ApiForbiddenResponse({ description: 'Not a collaborator (on a timeline the caller may see)' })
  @ApiNotFoundResponse({ description: 'Timeline not found' })
  leave(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<void> {
    return this.collaborators.leave(caller, id);
  }

  @Post('transfer-ownership')
  @HttpCode(200)
  @ApiOperation({ summary: 'Hand the timeline to another collaborator; the previous owner becomes an editor (owner)' })
  @ApiOkResponse({ type: TransferOwnershipResultDto })
  @ApiBadRequestResponse({ description: 'The new owner must be a collaborator' })
  @ApiForbiddenResponse({ description: 'Not the owner' })
  @ApiNotFoundResponse({ description: 'Timeline not found' })
  transfer(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Body() dto: TransferOwnershipDto): Promise<TransferOwnershipResultDto> {
    return this.collaborators.transferOwnership(caller, id, dto);
  }
}
