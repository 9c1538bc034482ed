import { Controller, Delete, Get, HttpCode, Param } from '@nestjs/common';
import { ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCaller, type SignedInCaller, SignedIn } from '@timeliner/platform';
import { SessionInfoDto, SignedOutSessionsDto } from './sessions.dto.js';
import { SessionsService } from './sessions.service.js';

@ApiTags('auth')
@Controller('api/auth/sessions')
@SignedIn()
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Get()
  @ApiOperation({ summary: 'The signed-in person\'s sessions: browser, system, address, opened, last active, and which is this device' })
  @ApiOkResponse({ type: SessionInfoDto, isArray: true })
  list(@CurrentCaller() caller: SignedInCaller): Promise<SessionInfoDto[]> {
    return this.sessions.list(caller);
  }

  @Delete()
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign out every other session (this one stays)' })
  @ApiOkResponse({ type: SignedOutSessionsDto })
  revokeOthers(@CurrentCaller() caller: SignedInCaller): Promise<SignedOutSessionsDto> {
    return this.sessions.revokeOthers(caller);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Sign out one of one\'s own sessions' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: 'Session not found (or not one\'s own)' })
  revoke(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<void> {
    return this.sessions.revoke(caller, id);
  }
}
