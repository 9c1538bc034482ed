import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsOptional, ValidateNested } from 'class-validator';

export class ChannelsDto {
  @ApiProperty({ description: 'Shown in the list and counted by the bell' }) inApp: boolean;
  @ApiProperty({ description: 'Sent by Web Push to the browsers the person subscribed' }) push: boolean;
}

export class ChannelsChangeDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean({ message: 'inApp must be true or false' })
  inApp?: boolean;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean({ message: 'push must be true or false' })
  push?: boolean;
}

/** One pair of switches per type of notification. */
export class PreferencesDto {
  @ApiProperty({ type: ChannelsDto, description: 'Likes of your posts, timelines and videos' }) likes: ChannelsDto;
  @ApiProperty({ type: ChannelsDto, description: 'Comments on your things and replies to your comments' }) comments: ChannelsDto;
  @ApiProperty({ type: ChannelsDto, description: '@mentions of you' }) mentions: ChannelsDto;
  @ApiProperty({ type: ChannelsDto, description: 'New followers' }) follows: ChannelsDto;
  @ApiProperty({ type: ChannelsDto, description: 'Invitations, being added as a collaborator, ownership given to you' }) collaboration: ChannelsDto;
  @ApiProperty({ type: ChannelsDto, description: 'Your videos finished processing or failed' }) videos: ChannelsDto;
  @ApiProperty({ type: ChannelsDto, description: 'Your exports are ready' }) exports: ChannelsDto;
}

/** An optional pair of switches of one type in a change. */
const ChangeOf = (description: string) =>
  applyDecorators(ApiPropertyOptional({ type: ChannelsChangeDto, description }), IsOptional(), ValidateNested(), Type(() => ChannelsChangeDto));

/** The types to change; a type or channel left out keeps its setting. */
export class PreferencesChangeDto {
  @ChangeOf('Likes') likes?: ChannelsChangeDto;
  @ChangeOf('Comments and replies') comments?: ChannelsChangeDto;
  @ChangeOf('Mentions') mentions?: ChannelsChangeDto;
  @ChangeOf('Follows') follows?: ChannelsChangeDto;
  @ChangeOf('Invitations, collaborators, ownership') collaboration?: ChannelsChangeDto;
  @ChangeOf('Video processing') videos?: ChannelsChangeDto;
  @ChangeOf('Exports') exports?: ChannelsChangeDto;
}
