import { Controller, Get, NotFoundException, Param, ParseUUIDPipe, BadRequestException } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { SignedIn } from '@timeliner/platform';
import { User } from '../users/user.entity.js';
import { mapProfile, ProfileDto } from './profile.dto.js';

@ApiTags('users')
@Controller('api/users')
export class ProfileController {
  constructor(private readonly dataSource: DataSource) {}

  @Get(':id/profile')
  @SignedIn()
  @ApiOperation({ summary: "A user's public profile and counts" })
  @ApiOkResponse({ type: ProfileDto })
  @ApiNotFoundResponse({ description: 'User not found' })
  async profile(
    @Param('id', new ParseUUIDPipe({ exceptionFactory: () => new BadRequestException('Invalid profile id') })) id: string,
  ): Promise<ProfileDto> {
    const user = await this.dataSource.getRepository(User).findOneBy({ id });
    if (!user) throw new NotFoundException('User not found');
    return mapProfile(user);
  }
}
