import { Body, Controller, Get, HttpCode, Param, Patch, Post, Req, UseFilters } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { CurrentCaller, type SignedInCaller, SignedIn, requestOrigin } from '@timeliner/platform';
import { RetryAfterFilter } from '../auth/retry-after.filter.js';
import { AssertionOptionsDto, PasskeyDto, PasskeyNameDto, RegisterPasskeyDto, RegistrationOptionsDto, RemovePasskeyDto } from './passkeys.dto.js';
import { PasskeysService } from './passkeys.service.js';

@ApiTags('auth')
@Controller('api/auth/passkeys')
@UseFilters(RetryAfterFilter)
@SignedIn()
export class PasskeysController {
  constructor(private readonly passkeys: PasskeysService) {}

  @Get()
  @ApiOperation({ summary: 'The signed-in person\'s passkeys, oldest first' })
  @ApiOkResponse({ type: PasskeyDto, isArray: true })
  list(@CurrentCaller() caller: SignedInCaller): Promise<PasskeyDto[]> {
    return this.passkeys.list(caller);
  }

  @Post('registration-options')
  @HttpCode(200)
  @ApiOperation({ summary: 'Start adding a passkey: the options for the browser, with a challenge that works once for five minutes' })
  @ApiOkResponse({ type: RegistrationOptionsDto })
  registrationOptions(@CurrentCaller() caller: SignedInCaller, @Req() request: FastifyRequest): Promise<RegistrationOptionsDto> {
    return this.passkeys.registrationOptions(caller, requestOrigin(request));
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Add a passkey: the browser\'s answer to the registration options, verified, and a name' })
  @ApiCreatedResponse({ type: PasskeyDto })
  @ApiBadRequestResponse({ description: 'Expired challenge or an answer that does not verify' })
  @ApiConflictResponse({ description: 'That passkey is already added' })
  register(@CurrentCaller() caller: SignedInCaller, @Body() dto: RegisterPasskeyDto, @Req() request: FastifyRequest): Promise<PasskeyDto> {
    return this.passkeys.register(caller, dto, requestOrigin(request));
  }

  @Post('confirm-options')
  @HttpCode(200)
  @ApiOperation({ summary: 'Options for proving who you are with one of your passkeys (before turning a factor off)' })
  @ApiOkResponse({ type: AssertionOptionsDto })
  @ApiBadRequestResponse({ description: 'No passkey yet' })
  confirmOptions(@CurrentCaller() caller: SignedInCaller, @Req() request: FastifyRequest): Promise<AssertionOptionsDto> {
    return this.passkeys.confirmOptions(caller, requestOrigin(request));
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Rename one of one\'s passkeys' })
  @ApiOkResponse({ type: PasskeyDto })
  @ApiNotFoundResponse({ description: 'No such passkey of the caller' })
  rename(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Body() dto: PasskeyNameDto): Promise<PasskeyDto> {
    return this.passkeys.rename(caller, id, dto.name);
  }

  @Post(':id/remove')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove one of one\'s passkeys (the password or a passkey is required)' })
  @ApiNoContentResponse()
  @ApiBadRequestResponse({ description: 'No proof, a wrong password or a passkey that could not be checked' })
  @ApiNotFoundResponse({ description: 'No such passkey of the caller' })
  @ApiTooManyRequestsResponse({ description: 'Too many wrong passwords (Retry-After)' })
  remove(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Body() dto: RemovePasskeyDto, @Req() request: FastifyRequest): Promise<void> {
    return this.passkeys.remove(caller, id, dto.proof, requestOrigin(request));
  }
}
