import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCaller, SignedIn, type SignedInCaller } from '@timeliner/platform';
import { PreferencesChangeDto, PreferencesDto } from './preference.dto.js';
import type { Preferences } from './preference.repository.js';
import { PreferenceService } from './preference.service.js';

@ApiTags('notifications')
@Controller('api/notifications/preferences')
@SignedIn()
export class PreferenceController {
  constructor(private readonly preferences: PreferenceService) {}

  @Get()
  @ApiOperation({ summary: "The caller's switches per type of notification (in the app, by push); all on until changed" })
  @ApiOkResponse({ type: PreferencesDto })
  getPreferences(@CurrentCaller() caller: SignedInCaller): Promise<Preferences> {
    return this.preferences.get(caller);
  }

  @Put()
  @ApiOperation({ summary: 'Change some switches; types and channels left out keep their setting' })
  @ApiOkResponse({ type: PreferencesDto, description: 'Every switch after the change' })
  @ApiBadRequestResponse({ description: 'Unknown type or channel, or a value that is not true or false' })
  updatePreferences(@CurrentCaller() caller: SignedInCaller, @Body() change: PreferencesChangeDto): Promise<Preferences> {
    return this.preferences.update(caller, change);
  }
}
