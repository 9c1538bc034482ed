import { Body, Controller, HttpCode, Post, Put, Req, UseFilters } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBadRequestResponse, ApiConflictResponse, ApiOkResponse, ApiOperation, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller, type SignedInCaller, SignedIn, requestOrigin } from '@timeliner/platform';
import { RetryAfterFilter } from '../auth/retry-after.filter.js';
import { ChangeEmailDto, ChangeEmailResultDto, ConfirmEmailDto, ConfirmEmailResultDto } from './email.dto.js';
import { EmailService } from './email.service.js';

@ApiTags('auth')
@Controller('api/auth/email')
@UseFilters(RetryAfterFilter)
export class EmailController {
  constructor(private readonly emails: EmailService) {}

  @Put()
  @SignedIn()
  @HttpCode(202)
  @ApiOperation({ summary: 'Ask to change the sign-in e-mail address (current password required); confirmed from the new address, the old one told' })
  @ApiAcceptedResponse({ type: ChangeEmailResultDto })
  @ApiBadRequestResponse({ description: 'Wrong current password, not an address, or the same address' })
  @ApiConflictResponse({ description: 'That email address is already in use' })
  @ApiTooManyRequestsResponse({ description: 'Too many requests or wrong passwords (Retry-After)' })
  request(@CurrentCaller() caller: SignedInCaller, @Body() dto: ChangeEmailDto, @Req() request: FastifyRequest): Promise<ChangeEmailResultDto> {
    return this.emails.request(caller, dto, requestOrigin(request));
  }

  @Post('confirm')
  @HttpCode(200)
  @ApiOperation({ summary: 'Confirm a new e-mail address with the link sent to it (open to signed-out callers)' })
  @ApiOkResponse({ type: ConfirmEmailResultDto })
  @ApiBadRequestResponse({ description: 'Invalid, used or expired link' })
  @ApiConflictResponse({ description: 'That email address is already in use' })
  confirm(@CurrentCaller() caller: Caller, @Body() dto: ConfirmEmailDto): Promise<ConfirmEmailResultDto> {
    return this.emails.confirm(caller, dto);
  }
}
