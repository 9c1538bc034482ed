import { Body, Controller, Get, HttpCode, Post, Put, UseFilters } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags, ApiTooManyRequestsResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { type Caller, CurrentCaller, type SignedInCaller, SignedIn, UserAgent } from '@timeliner/platform';
import { AuthResponseDto, LoginDto, RegisterDto, UpdateProfileDto, UserDto } from './auth.dto.js';
import { AuthService } from './auth.service.js';
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
  @ApiOperation({ summary: 'Sign in with e-mail or username' })
  @ApiOkResponse({ type: AuthResponseDto })
  @ApiUnauthorizedResponse({ description: 'Invalid email/username or password' })
  @ApiTooManyRequestsResponse({ description: 'Too many attempts (Retry-After)' })
  login(@CurrentCaller() caller: Caller, @Body() dto: LoginDto, @UserAgent() userAgent?: string): Promise<AuthResponseDto> {
    return this.auth.login(caller, dto, userAgent);
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
