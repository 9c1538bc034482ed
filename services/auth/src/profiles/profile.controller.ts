import { BadRequestException, Controller, Get, Param, ParseUUIDPipe } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCaller, SignedIn, type SignedInCaller } from '@timeliner/platform';
import { ProfileDto } from './profile.dto.js';
import { ProfileService } from './profile.service.js';

@ApiTags('users')
@Controller('api/users')
export class ProfileController {
  constructor(private readonly profiles: ProfileService) {}

  @Get(':id/profile')
  @SignedIn()
  @ApiOperation({
    summary: "A user's public profile and counts",
    description: 'The counts are kept from events and follow a change within a second. timelinesCount counts every timeline of the person for the person themself, and only the public, published ones for anyone else.',
  })
  @ApiOkResponse({ type: ProfileDto })
  @ApiNotFoundResponse({ description: 'User not found' })
  profile(
    @CurrentCaller() caller: SignedInCaller,
    @Param('id', new ParseUUIDPipe({ exceptionFactory: () => new BadRequestException('Invalid profile id') })) id: string,
  ): Promise<ProfileDto> {
    return this.profiles.profile(caller, id);
  }
}
