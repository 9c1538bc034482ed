import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiCreatedResponse, ApiForbiddenResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { type Caller, CurrentCaller, nextCursorHeaderDoc, sendPage, SignedIn, type SignedInCaller } from '@timeliner/platform';
import { CreateTimelineDto, MyTimelinesPageQueryDto, TimelineDto, TimelinePageQueryDto, UpdateTimelineDto } from './timeline.dto.js';
import { TimelineService } from './timeline.service.js';

@ApiTags('timelines')
@Controller('api')
export class TimelineController {
  constructor(private readonly timelines: TimelineService) {}

  @Get('timelines')
  @ApiOperation({ summary: 'Timelines the caller may see, in feed order (published public ones, plus their own and shared ones)' })
  @ApiOkResponse({ type: [TimelineDto], headers: nextCursorHeaderDoc() })
  @ApiBadRequestResponse({ description: 'Invalid limit or cursor' })
  async list(@CurrentCaller() caller: Caller, @Query() query: TimelinePageQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<TimelineDto[]> {
    return sendPage(reply, await this.timelines.list(caller, query));
  }

  @Get('my-timelines')
  @SignedIn()
  @ApiOperation({ summary: 'Timelines the caller owns or collaborates on, most recently updated first' })
  @ApiOkResponse({ type: [TimelineDto], headers: nextCursorHeaderDoc() })
  async mine(@CurrentCaller() caller: SignedInCaller, @Query() query: MyTimelinesPageQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<TimelineDto[]> {
    return sendPage(reply, await this.timelines.mine(caller, query));
  }

  @Post('timelines')
  @SignedIn()
  @ApiOperation({ summary: 'Create a timeline; the caller becomes its owner' })
  @ApiCreatedResponse({ type: TimelineDto })
  @ApiBadRequestResponse({ description: 'Invalid or unknown fields' })
  create(@CurrentCaller() caller: SignedInCaller, @Body() dto: CreateTimelineDto): Promise<TimelineDto> {
    return this.timelines.create(caller, dto);
  }

  @Get('timelines/:id')
  @ApiOperation({ summary: 'One timeline' })
  @ApiOkResponse({ type: TimelineDto })
  @ApiNotFoundResponse({ description: 'Timeline not found (also when the caller may not see it)' })
  get(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<TimelineDto> {
    return this.timelines.get(caller, id);
  }

  @Patch('timelines/:id')
  @SignedIn()
  @ApiOperation({ summary: 'Change title, description, visibility or status (owner)' })
  @ApiOkResponse({ type: TimelineDto })
  @ApiBadRequestResponse({ description: 'Invalid or unknown fields' })
  @ApiForbiddenResponse({ description: 'Not the owner' })
  @ApiNotFoundResponse({ description: 'Timeline not found' })
  update(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Body() dto: UpdateTimelineDto): Promise<TimelineDto> {
    return this.timelines.update(caller, id, dto);
  }

  @Delete('timelines/:id')
  @SignedIn()
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a timeline with its collaborators and invitations (owner)' })
  @ApiNoContentResponse()
  @ApiForbiddenResponse({ description: 'Not the owner' })
  @ApiNotFoundResponse({ description: 'Timeline not found' })
  remove(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<void> {
    return this.timelines.remove(caller, id);
  }
}
