import { Body, Controller, HttpCode, Post, Put, Req, UseFilters } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBadRequestResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller, type SignedInCaller, SignedIn, requestOrigin } from '@timeliner/platform';
import { RetryAfterFilter } from '../auth/retry-after.filter.js';
import { ChangePasswordDto, ChangePasswordResultDto, ForgotPasswordDto, ForgotPasswordResultDto, ResetPasswordDto } from './password.dto.js';
import { PasswordService } from './password.service.js';

@ApiTags('auth')
@Controller('api/auth/password')
@UseFilters(RetryAfterFilter)
export class PasswordController {
  constructor(private readonly passwords: PasswordService) {}

  @Post('forgot')
  @HttpCode(202)
  @ApiOperation({ summary: 'E-mail a link to choose a new password (open to signed-out callers; the same answer for every address)' })
  @ApiAcceptedResponse({ type: ForgotPasswordResultDto })
  @ApiBadRequestResponse({ description: 'Not an e-mail address' })
  @ApiTooManyRequestsResponse({ description: 'Too many requests from this address or for this e-mail (Retry-After)' })
  forgot(@CurrentCaller() caller: Caller, @Body() dto: ForgotPasswordDto, @Req() request: FastifyRequest): Promise<ForgotPasswordResultDto> {
    return this.passwords.forgot(caller, dto, requestOrigin(request));
  }

  @Post('reset')
  @HttpCode(204)
  @ApiOperation({ summary: 'Choose a new password with an e-mailed link (open to signed-out callers); every session of the account ends' })
  @ApiNoContentResponse()
  @ApiBadRequestResponse({ description: 'Invalid, used or expired link, or an unsuitable password' })
  @ApiTooManyRequestsResponse({ description: 'Too many attempts (Retry-After)' })
  reset(@CurrentCaller() caller: Caller, @Body() dto: ResetPasswordDto): Promise<void> {
    return this.passwords.reset(caller, dto);
  }

  @Put()
  @SignedIn()
  @ApiOperation({ summary: 'Change the password (the current one is required); every other session ends' })
  @ApiOkResponse({ type: ChangePasswordResultDto })
  @ApiBadRequestResponse({ description: 'Wrong current password, or an unsuitable new one' })
  @ApiTooManyRequestsResponse({ description: 'Too many wrong current passwords (Retry-After)' })
  change(@CurrentCaller() caller: SignedInCaller, @Body() dto: ChangePasswordDto): Promise<ChangePasswordResultDto> {
    return this.passwords.change(caller, dto);
  }
}
