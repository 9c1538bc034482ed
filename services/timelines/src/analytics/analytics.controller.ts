import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiForbiddenResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Caller, CurrentCaller, SignedIn, type SignedInCaller, UserAgent } from '@timeliner/platform';
import { AnalyticsDto, RecordShareDto, RecordViewDto } from './analytics.dto.js';
import { AnalyticsService } from './analytics.service.js';

@ApiTags('analytics')
@Controller('api/timelines/:id')
export class AnalyticsController {
  constructor(private readonly analytics: AnalyticsService) {}

  @Post('views')
  @HttpCode(204)
  @ApiOperation({ summary: 'Record a view (anyone who may see the timeline; repeated views by one viewer within 30 minutes count once)' })
  @ApiNoContentResponse()
  @ApiBadRequestResponse({ description: 'Invalid watch time, completion or time zone' })
  @ApiNotFoundResponse({ description: 'Timeline not found' })
  recordView(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() dto: RecordViewDto, @UserAgent() userAgent?: string): Promise<void> {
    return this.analytics.recordView({ caller, userAgent }, id, dto);
  }

  @Post('shares')
  @HttpCode(204)
  @ApiOperation({ summary: "Record a share (anyone who may see the timeline; the owner's and editors' own shares are accepted but not counted)" })
  @ApiNoContentResponse()
  @ApiBadRequestResponse({ description: 'Unknown channel' })
  @ApiNotFoundResponse({ description: 'Timeline not found' })
  recordShare(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() dto: RecordShareDto, @UserAgent() userAgent?: string): Promise<void> {
    return this.analytics.recordShare({ caller, userAgent }, id, dto);
  }

  @Post('downloads')
  @HttpCode(204)
  @ApiOperation({ summary: 'Record a download (anyone who may see the timeline)' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: 'Timeline not found' })
  recordDownload(@CurrentCaller() caller: Caller, @Param('id') id: string, @UserAgent() userAgent?: string): Promise<void> {
    return this.analytics.recordDownload({ caller, userAgent }, id);
  }

  @Get('analytics')
  @SignedIn()
  @ApiOperation({ summary: 'Performance figures computed from recorded views, shares and downloads (owner, editor)' })
  @ApiOkResponse({ type: AnalyticsDto })
  @ApiForbiddenResponse({ description: 'Viewers and others' })
  @ApiNotFoundResponse({ description: 'Timeline not found' })
  report(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<AnalyticsDto> {
    return this.analytics.report(caller, id);
  }
}
