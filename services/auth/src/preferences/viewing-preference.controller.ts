import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { CurrentCaller, SignedIn, type SignedInCaller } from '@timeliner/platform';
import { UpdateViewingPreferencesDto, ViewingPreferencesDto } from './viewing-preference.dto.js';
import { ViewingPreferenceService } from './viewing-preference.service.js';

@ApiTags('auth')
@Controller('api/auth/preferences')
@SignedIn()
@ApiUnauthorizedResponse({ description: 'Not signed in' })
export class ViewingPreferenceController {
  constructor(private readonly preferences: ViewingPreferenceService) {}

  @Get()
  @ApiOperation({ summary: "The signed-in person's viewing preferences (always show sensitive media)" })
  @ApiOkResponse({ type: ViewingPreferencesDto })
  getViewingPreferences(@CurrentCaller() caller: SignedInCaller): Promise<ViewingPreferencesDto> {
    return this.preferences.get(caller);
  }

  @Put()
  @ApiOperation({ summary: 'Change viewing preferences; fields left out stay as they are' })
  @ApiOkResponse({ type: ViewingPreferencesDto })
  @ApiBadRequestResponse({ description: 'Not true or false, or an unknown field' })
  updateViewingPreferences(@CurrentCaller() caller: SignedInCaller, @Body() dto: UpdateViewingPreferencesDto): Promise<ViewingPreferencesDto> {
    return this.preferences.update(caller, dto);
  }
}
