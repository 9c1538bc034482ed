import { Body, Controller, Get, HttpCode, Post, Put, Req, Res, UseFilters } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiExtraModels, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags, ApiTooManyRequestsResponse, ApiUnauthorizedResponse, getSchemaPath } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller, type SignedInCaller, SignedIn, UserAgent, requestOrigin } from '@timeliner/platform';
import { AssertionOptionsDto } from '../passkeys/passkeys.dto.js';
import { PasskeyAssertionDto, SecondStepDto, SecondStepRequiredDto } from '../two-step/two-step.dto.js';
import { AuthResponseDto, LoginDto, RegisterDto, UpdateProfileDto, UserDto } from './auth.dto.js';
import { AuthService } from './auth.service.js';
import { DeletionPendingDto } from '../deletion/account-deletion.dto.js';
import { RetryAfterFilter } from './retry-after.filter.js';

@ApiTags('auth')
@Controller('api/auth')
@UseFilters(RetryAfterFilter)
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post('register')
  @HttpCode(201)
  @ApiOperation({ summary: 'Create an account and sign in' })
  @ApiCreatedResponse({ type: AuthResponseDto })
  @ApiBadRequestResponse({ description: 'Invalid fields' })
  @ApiConflictResponse({ description: 'Username or e-mail already in use' })
  @ApiTooManyRequestsResponse({ description: 'Too many attempts (Retry-After)' })
  register(@CurrentCaller() caller: Caller, @Body() dto: RegisterDto, @UserAgent() userAgent?: string): Promise<AuthResponseDto> {
    return this.auth.register(caller, dto, userAgent);
  }

  @Post('login')
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign in with e-mail or username; an account with two-step sign-in answers 202 with a token for the second step instead of a session' })
  @ApiOkResponse({ type: AuthResponseDto })
  @ApiAcceptedResponse({ schema: { oneOf: [{ $ref: getSchemaPath(SecondStepRequiredDto) }, { $ref: getSchemaPath(DeletionPendingDto) }] }, description: 'The password is right; either send a code to POST /api/auth/login/second-step (`secondStep`), or the account is waiting to be deleted and POST /api/auth/account/deletion/cancel cancels that and signs in (`deletionPending`)' })
  @ApiExtraModels(SecondStepRequiredDto, DeletionPendingDto)
  @ApiUnauthorizedResponse({ description: 'Invalid email/username or password' })
  @ApiTooManyRequestsResponse({ description: 'Too many attempts (Retry-After)' })
  async login(@CurrentCaller() caller: Caller, @Body() dto: LoginDto, @Res({ passthrough: true }) reply: FastifyReply, @UserAgent() userAgent?: string): Promise<AuthResponseDto | SecondStepRequiredDto | DeletionPendingDto> {
    const answer = await this.auth.login(caller, dto, userAgent);
    if ('secondStep' in answer || 'deletionPending' in answer) reply.status(202);
    return answer;
  }

  @Post('login/second-step')
  @HttpCode(200)
  @ApiOperation({ summary: 'Finish a password sign-in with a code from the authenticator app or a recovery code (each works once)' })
  @ApiOkResponse({ type: AuthResponseDto })
  @ApiAcceptedResponse({ type: DeletionPendingDto, description: 'The code is right, but the account is waiting to be deleted: POST /api/auth/account/deletion/cancel cancels that and signs in' })
  @ApiUnauthorizedResponse({ description: 'Wrong code, or the sign-in expired (five minutes, five wrong codes)' })
  @ApiTooManyRequestsResponse({ description: 'Too many attempts (Retry-After)' })
  async secondStep(@CurrentCaller() caller: Caller, @Body() dto: SecondStepDto, @Res({ passthrough: true }) reply: FastifyReply, @UserAgent() userAgent?: string): Promise<AuthResponseDto | DeletionPendingDto> {
    const answer = await this.auth.secondStep(caller, dto, userAgent);
    if ('deletionPending' in answer) reply.status(202);
    return answer;
  }

  @Post('passkeys/sign-in-options')
  @HttpCode(200)
  @ApiOperation({ summary: 'Start signing in with a passkey alone: options with a challenge that works once, for five minutes' })
  @ApiOkResponse({ type: AssertionOptionsDto })
  @ApiTooManyRequestsResponse({ description: 'Too many attempts (Retry-After)' })
  passkeySignInOptions(@CurrentCaller() caller: Caller, @Req() request: FastifyRequest): Promise<AssertionOptionsDto> {
    return this.auth.passkeySignInOptions(caller, requestOrigin(request));
  }

  @Post('passkeys/sign-in')
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign in with a passkey alone: the browser\'s answer to the sign-in options' })
  @ApiOkResponse({ type: AuthResponseDto })
  @ApiAcceptedResponse({ type: DeletionPendingDto, description: 'The passkey is right, but the account is waiting to be deleted: POST /api/auth/account/deletion/cancel cancels that and signs in' })
  @ApiBadRequestResponse({ description: 'Expired challenge, an unknown passkey or an answer that does not verify' })
  @ApiTooManyRequestsResponse({ description: 'Too many attempts (Retry-After)' })
  async passkeySignIn(
    @CurrentCaller() caller: Caller,
    @Body() dto: PasskeyAssertionDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @UserAgent() userAgent?: string,
  ): Promise<AuthResponseDto | DeletionPendingDto> {
    const answer = await this.auth.passkeySignIn(caller, dto, requestOrigin(request), userAgent);
    if ('deletionPending' in answer) reply.status(202);
    return answer;
  }

  @Post('logout')
  @HttpCode(204)
  @SignedIn()
  @ApiOperation({ summary: 'End the current session' })
  @ApiNoContentResponse()
  logout(@CurrentCaller() caller: SignedInCaller): Promise<void> {
    return this.auth.logout(caller);
  }

  @Get('me')
  @SignedIn()
  @ApiOperation({ summary: 'The signed-in user' })
  @ApiOkResponse({ type: UserDto })
  me(@CurrentCaller() caller: SignedInCaller): Promise<UserDto> {
    return this.auth.me(caller);
  }

  @Put('profile')
  @SignedIn()
  @ApiOperation({ summary: 'Update display name, bio or avatar' })
  @ApiOkResponse({ type: UserDto })
  updateProfile(@CurrentCaller() caller: SignedInCaller, @Body() dto: UpdateProfileDto): Promise<UserDto> {
    return this.auth.updateProfile(caller, dto);
  }
}
