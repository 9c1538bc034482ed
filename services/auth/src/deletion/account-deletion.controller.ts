import { Body, Controller, HttpCode, Post, Req, UseFilters } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags, ApiTooManyRequestsResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller, type SignedInCaller, SignedIn, UserAgent, requestOrigin } from '@timeliner/platform';
import { AuthResponseDto } from '../auth/auth.dto.js';
import { AuthService } from '../auth/auth.service.js';
import { RetryAfterFilter } from '../auth/retry-after.filter.js';
import { ProofDto } from '../two-step/two-step.dto.js';
import { CancelDeletionDto, DeletionRequestedDto } from './account-deletion.dto.js';
import { AccountDeletionService } from './account-deletion.service.js';

@ApiTags('auth')
@Controller('api/auth/account/deletion')
@UseFilters(RetryAfterFilter)
export class AccountDeletionController {
  constructor(
    private readonly deletions: AccountDeletionService,
    private readonly auth: AuthService,
  ) {}

  @Post()
  @HttpCode(202)
  @SignedIn()
  @ApiOperation({
    summary: 'Delete the account, proven with the password or a passkey: every session ends at once; after 30 days the account and everything it made are deleted for good, unless the person signs in and cancels before then',
  })
  @ApiAcceptedResponse({ type: DeletionRequestedDto })
  @ApiBadRequestResponse({ description: 'No proof, a wrong password, or a passkey answer that does not verify' })
  @ApiTooManyRequestsResponse({ description: 'Too many wrong passwords (Retry-After)' })
  request(@CurrentCaller() caller: SignedInCaller, @Body() dto: ProofDto, @Req() request: FastifyRequest): Promise<DeletionRequestedDto> {
    return this.deletions.request(caller, dto, requestOrigin(request));
  }

  @Post('cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel a deletion with the token a sign-in answered during the grace period (open to signed-out callers), and sign in' })
  @ApiOkResponse({ type: AuthResponseDto })
  @ApiUnauthorizedResponse({ description: 'The token is unknown, used or expired (ten minutes)' })
  @ApiTooManyRequestsResponse({ description: 'Too many attempts (Retry-After)' })
  cancel(@CurrentCaller() caller: Caller, @Body() dto: CancelDeletionDto, @UserAgent() userAgent?: string): Promise<AuthResponseDto> {
    return this.auth.cancelDeletion(caller, dto, userAgent);
  }
}
