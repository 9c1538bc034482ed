import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, Res, UseFilters } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiGoneResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller, SignedIn, type SignedInCaller, requestOrigin } from '@timeliner/platform';
import { InvitationExpiredFilter } from './invitation-expired.filter.js';
import { AcceptInvitationResultDto, InvitationDetailDto, InvitationDto, InvitationExpiredDto, InviteDto, InviteResultDto } from './invitation.dto.js';
import { InvitationService } from './invitation.service.js';

/** Invitation e-mails per person (INVITATION_MAILS_PER_HOUR, INVITATION_MAILS_PER_DAY). */
const MAIL_LIMIT = {
  description: 'You can send at most {n} invitation e-mails an hour (or a day); try again in {time}. Nothing was sent or changed.',
  headers: { 'Retry-After': { description: 'Seconds until one more may be sent', schema: { type: 'integer' } } },
} as const;

@ApiTags('collaboration')
@Controller('api')
@UseFilters(InvitationExpiredFilter)
export class InvitationController {
  constructor(private readonly invitations: InvitationService) {}

  @Post('timelines/:id/invite')
  @SignedIn()
  @ApiOperation({ summary: 'Invite by e-mail: an address with an account is added at once (200), any other is e-mailed a link (201) (owner)' })
  @ApiOkResponse({ type: InviteResultDto, description: 'userExists: true, collaborator added' })
  @ApiCreatedResponse({ type: InviteResultDto, description: 'userExists: false, invitation e-mailed' })
  @ApiBadRequestResponse({ description: 'Invalid address, role or message; or your own address' })
  @ApiConflictResponse({ description: 'Already a collaborator' })
  @ApiForbiddenResponse({ description: 'Not the owner' })
  @ApiNotFoundResponse({ description: 'Timeline not found' })
  @ApiTooManyRequestsResponse(MAIL_LIMIT)
  @ApiServiceUnavailableResponse({ description: 'The e-mail could not be sent; nothing was changed' })
  async invite(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Body() dto: InviteDto, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<InviteResultDto> {
    const result = await this.invitations.invite(caller, id, dto, requestOrigin(request));
    void reply.status(result.userExists ? 200 : 201);
    return result;
  }

  @Get('timelines/:id/invitations')
  @SignedIn()
  @ApiOperation({ summary: 'Open invitations of a timeline, newest first (owner)' })
  @ApiOkResponse({ type: [InvitationDto] })
  @ApiForbiddenResponse({ description: 'Not the owner' })
  @ApiNotFoundResponse({ description: 'Timeline not found' })
  list(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<InvitationDto[]> {
    return this.invitations.listForTimeline(caller, id);
  }

  @Delete('invitations/:id')
  @SignedIn()
  @HttpCode(204)
  @ApiOperation({ summary: 'Cancel an open invitation, by its id (owner of its timeline)' })
  @ApiNoContentResponse()
  @ApiConflictResponse({ description: 'No longer pending' })
  @ApiForbiddenResponse({ description: 'Not the owner' })
  @ApiNotFoundResponse({ description: 'Invitation not found' })
  cancel(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<void> {
    return this.invitations.cancel(caller, id);
  }

  @Post('invitations/:id/resend')
  @SignedIn()
  @HttpCode(200)
  @ApiOperation({ summary: 'Send an open invitation again with a new link and expiry, or add the person if they have signed up (owner)' })
  @ApiOkResponse({ type: InviteResultDto })
  @ApiConflictResponse({ description: 'No longer pending' })
  @ApiForbiddenResponse({ description: 'Not the owner' })
  @ApiNotFoundResponse({ description: 'Invitation not found' })
  @ApiTooManyRequestsResponse(MAIL_LIMIT)
  @ApiServiceUnavailableResponse({ description: 'The e-mail could not be sent; nothing was changed' })
  resend(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Req() request: FastifyRequest): Promise<InviteResultDto> {
    return this.invitations.resend(caller, id, requestOrigin(request));
  }

  @Get('invitations/:token')
  @ApiOperation({ summary: 'The invitation behind an e-mailed link, with its timeline (no sign-in needed)' })
  @ApiOkResponse({ type: InvitationDetailDto })
  @ApiNotFoundResponse({ description: 'This invitation link is invalid or has already been used.' })
  @ApiGoneResponse({ type: InvitationExpiredDto, description: 'Expired (body has expired: true)' })
  get(@Param('token') token: string): Promise<InvitationDetailDto> {
    return this.invitations.getByToken(token);
  }

  @Post('invitations/:token/accept')
  @SignedIn()
  @HttpCode(200)
  @ApiOperation({ summary: 'Join the timeline (the signed-in account must have the invited address)' })
  @ApiOkResponse({ type: AcceptInvitationResultDto })
  @ApiForbiddenResponse({ description: 'This invitation was sent to a different email address' })
  @ApiNotFoundResponse({ description: 'Invalid or used link' })
  @ApiGoneResponse({ type: InvitationExpiredDto, description: 'Expired' })
  accept(@CurrentCaller() caller: SignedInCaller, @Param('token') token: string): Promise<AcceptInvitationResultDto> {
    return this.invitations.accept(caller, token);
  }

  @Post('invitations/:token/decline')
  @HttpCode(204)
  @ApiOperation({ summary: 'Decline the invitation (no sign-in needed)' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: 'Invalid or used link' })
  @ApiGoneResponse({ type: InvitationExpiredDto, description: 'Expired' })
  decline(@CurrentCaller() caller: Caller, @Param('token') token: string): Promise<void> {
    return this.invitations.decline(caller, token);
  }
}
