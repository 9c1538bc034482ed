import { Body, Controller, Get, HttpCode, Post, Req, UseFilters } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { CurrentCaller, type SignedInCaller, SignedIn, requestOrigin } from '@timeliner/platform';
import { RetryAfterFilter } from '../auth/retry-after.filter.js';
import { ConfirmTotpDto, ProofDto, RecoveryCodesDto, TotpSetupDto, TwoStepStatusDto } from './two-step.dto.js';
import { TwoStepService } from './two-step.service.js';

@ApiTags('auth')
@Controller('api/auth/two-step')
@UseFilters(RetryAfterFilter)
@SignedIn()
export class TwoStepController {
  constructor(private readonly twoStep: TwoStepService) {}

  @Get()
  @ApiOperation({ summary: 'Whether two-step sign-in with an authenticator app is on, and the recovery codes left' })
  @ApiOkResponse({ type: TwoStepStatusDto })
  status(@CurrentCaller() caller: SignedInCaller): Promise<TwoStepStatusDto> {
    return this.twoStep.status(caller);
  }

  @Post('totp/setup')
  @HttpCode(200)
  @ApiOperation({ summary: 'Start setting up an authenticator app: a new secret, shown this once as a QR code and as text' })
  @ApiOkResponse({ type: TotpSetupDto })
  @ApiConflictResponse({ description: 'Two-step sign-in is already on' })
  setup(@CurrentCaller() caller: SignedInCaller): Promise<TotpSetupDto> {
    return this.twoStep.setup(caller);
  }

  @Post('totp/confirm')
  @HttpCode(200)
  @ApiOperation({ summary: 'Turn two-step sign-in on with a code from the app; answers ten recovery codes, shown this once' })
  @ApiOkResponse({ type: RecoveryCodesDto })
  @ApiBadRequestResponse({ description: 'Wrong code, or no set-up started' })
  @ApiConflictResponse({ description: 'Two-step sign-in is already on' })
  confirm(@CurrentCaller() caller: SignedInCaller, @Body() dto: ConfirmTotpDto): Promise<RecoveryCodesDto> {
    return this.twoStep.confirm(caller, dto.code);
  }

  @Post('totp/disable')
  @HttpCode(204)
  @ApiOperation({ summary: 'Turn two-step sign-in off (the password or a passkey is required); the recovery codes go with it' })
  @ApiNoContentResponse()
  @ApiBadRequestResponse({ description: 'No proof, a wrong password or a passkey that could not be checked' })
  @ApiTooManyRequestsResponse({ description: 'Too many wrong passwords (Retry-After)' })
  disable(@CurrentCaller() caller: SignedInCaller, @Body() dto: ProofDto, @Req() request: FastifyRequest): Promise<void> {
    return this.twoStep.disable(caller, dto, requestOrigin(request));
  }

  @Post('recovery-codes')
  @HttpCode(200)
  @ApiOperation({ summary: 'Ten new recovery codes (the password or a passkey is required); the earlier ones stop working' })
  @ApiOkResponse({ type: RecoveryCodesDto })
  @ApiBadRequestResponse({ description: 'Two-step sign-in is off, no proof, or a wrong password' })
  @ApiTooManyRequestsResponse({ description: 'Too many wrong passwords (Retry-After)' })
  regenerate(@CurrentCaller() caller: SignedInCaller, @Body() dto: ProofDto, @Req() request: FastifyRequest): Promise<RecoveryCodesDto> {
    return this.twoStep.regenerate(caller, dto, requestOrigin(request));
  }
}
