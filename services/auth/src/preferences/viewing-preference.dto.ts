import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, ValidateIf } from 'class-validator';
import type { ViewingPreferenceRow } from './viewing-preference.repository.js';

export class ViewingPreferencesDto {
  @ApiProperty({ description: 'Always show sensitive media: no blurred cover with "Show" before what is marked sensitive' }) alwaysShowSensitive: boolean;
}

export class UpdateViewingPreferencesDto {
  @ApiPropertyOptional({ description: 'Always show sensitive media' })
  @ValidateIf((dto: UpdateViewingPreferencesDto) => dto.alwaysShowSensitive !== undefined)
  @IsBoolean({ message: 'alwaysShowSensitive must be true or false' })
  alwaysShowSensitive?: boolean;
}

export const mapViewingPreferences = (row: ViewingPreferenceRow): ViewingPreferencesDto => ({ alwaysShowSensitive: row.alwaysShowSensitive });
