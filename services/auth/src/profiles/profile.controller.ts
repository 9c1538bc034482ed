import { Controller, Get, NotFoundException, Param, ParseUUIDPipe, BadRequestException } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { CurrentCaller, SignedIn, type SignedInCaller } from '@timeliner/platform';
import { User } from '../users/user.entity.js';
import { mapProfile, ProfileDto } from './profile.dto.js';

@ApiTags('users')
@Controller('api/users')
export class ProfileController {
  constructor(private readonly dataSource: DataSource) {}

  @Get(':id/profile')
  @SignedIn()
  @ApiOperation({
    summary: "A user's public profile and counts",
    description: 'The counts are kept from events and follow a change within a second. timelinesCount counts every timeline of the person for the person themself, and only the public, published ones for anyone else.',
  })
  @ApiOkResponse({ type: ProfileDto })
  @ApiNotFoundResponse({ description: 'User not found' })
  async profile(
    @CurrentCaller() caller: SignedInCaller,
    @Param('id', new ParseUUIDPipe({ exceptionFactory: () => new BadRequestException('Invalid profile id') })) id: string,
  ): Promise<ProfileDto> {
    const user = await this.dataSource.getRepository(User).findOneBy({ id });
    if (!user) throw new NotFoundException('User not found');
    return mapProfile(user, caller.userId);
  }
}
