import { Body, Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCaller, SignedIn, type SignedInCaller } from '@timeliner/platform';
import { SaveWatchPositionDto, WatchPositionAnswerDto } from './watch-position.dto.js';
import { WatchPositionService } from './watch-position.service.js';

@ApiTags('watch positions')
@Controller('api/timelines/:id/watch-position')
export class WatchPositionController {
  constructor(private readonly positions: WatchPositionService) {}

  @Get()
  @SignedIn()
  @ApiOperation({ summary: "The caller's own saved place in the timeline (item and second), to offer resuming there" })
  @ApiOkResponse({ type: WatchPositionAnswerDto })
  @ApiNotFoundResponse({ description: 'Timeline not found (or no longer visible to the caller)' })
  get(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<WatchPositionAnswerDto> {
    return this.positions.get(caller, id);
  }

  @Put()
  @SignedIn()
  @ApiOperation({ summary: "Save the caller's place in the timeline (the player sends it every few seconds and when it is left)" })
  @ApiOkResponse({ type: WatchPositionAnswerDto })
  @ApiBadRequestResponse({ description: 'Invalid item id or seconds' })
  @ApiNotFoundResponse({ description: 'Timeline not found' })
  save(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Body() dto: SaveWatchPositionDto): Promise<WatchPositionAnswerDto> {
    return this.positions.save(caller, id, dto);
  }

  @Delete()
  @SignedIn()
  @HttpCode(204)
  @ApiOperation({ summary: "Forget the caller's place in the timeline (watched to the end)" })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: 'Timeline not found' })
  clear(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<void> {
    return this.positions.clear(caller, id);
  }
}
