import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse, ApiCreatedResponse, ApiForbiddenResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam,
  ApiServiceUnavailableResponse, ApiTags, ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { type Caller, CurrentCaller, nextCursorHeaderDoc, sendPage, SignedIn, type SignedInCaller } from '@timeliner/platform';
import { PageQueryDto } from '../pagination/page-queries.js';
import {
  AddCollectionTimelineDto, CollectionDto, CollectionOrderDto, CollectionTimelineDto, CreateCollectionDto, TimelineCollectionDto, UpdateCollectionDto,
} from './collection.dto.js';
import { CollectionService } from './collection.service.js';

const COLLECTION_ID = { name: 'id', description: 'The collection', format: 'uuid' } as const;
const NOT_FOUND = { description: 'Collection not found (or private to someone else); for timelines, also Timeline not found' } as const;
const NOT_OWNER = { description: 'Only the owner can change this collection' } as const;
const SIGNED_OUT = { description: 'Not signed in' } as const;
const UNAVAILABLE = { description: 'Timelines service unavailable' } as const;

@ApiTags('collections')
@Controller('api/collections')
export class CollectionController {
  constructor(private readonly collections: CollectionService) {}

  @Get()
  @SignedIn()
  @ApiOperation({ summary: "The caller's collections, newest first" })
  @ApiOkResponse({ type: [CollectionDto], headers: nextCursorHeaderDoc() })
  @ApiBadRequestResponse({ description: 'Bad limit or cursor, unknown query field' })
  @ApiUnauthorizedResponse(SIGNED_OUT)
  async listCollections(@CurrentCaller() caller: SignedInCaller, @Query() query: PageQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<CollectionDto[]> {
    return sendPage(reply, await this.collections.mine(caller, query));
  }

  @Post()
  @HttpCode(201)
  @SignedIn()
  @ApiOperation({ summary: 'Make a collection (public unless isPublic is false)' })
  @ApiCreatedResponse({ type: CollectionDto })
  @ApiBadRequestResponse({ description: "'Collection name is required' (missing or blank), too long a name or description, unknown field" })
  @ApiUnauthorizedResponse(SIGNED_OUT)
  createCollection(@CurrentCaller() caller: SignedInCaller, @Body() dto: CreateCollectionDto): Promise<CollectionDto> {
    return this.collections.create(caller, dto);
  }

  @Get(':id')
  @ApiParam(COLLECTION_ID)
  @ApiOperation({ summary: 'One collection: the owner always, others when it is public' })
  @ApiOkResponse({ type: CollectionDto })
  @ApiNotFoundResponse(NOT_FOUND)
  getCollection(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<CollectionDto> {
    return this.collections.get(caller, id);
  }

  @Put(':id')
  @SignedIn()
  @ApiParam(COLLECTION_ID)
  @ApiOperation({ summary: 'Change the name, description or visibility of one of your collections (fields left out stay; description null clears it)' })
  @ApiOkResponse({ type: CollectionDto })
  @ApiBadRequestResponse({ description: "'Collection name is required' (blank), too long a name or description, unknown field" })
  @ApiForbiddenResponse(NOT_OWNER)
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiUnauthorizedResponse(SIGNED_OUT)
  updateCollection(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Body() dto: UpdateCollectionDto): Promise<CollectionDto> {
    return this.collections.update(caller, id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @SignedIn()
  @ApiParam(COLLECTION_ID)
  @ApiOperation({ summary: 'Delete one of your collections (the timelines themselves stay)' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiForbiddenResponse(NOT_OWNER)
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiUnauthorizedResponse(SIGNED_OUT)
  deleteCollection(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<void> {
    return this.collections.delete(caller, id);
  }

  @Get(':id/timelines')
  @ApiParam(COLLECTION_ID)
  @ApiOperation({ summary: "A collection's timelines in order; those the caller may not see are left out" })
  @ApiOkResponse({ type: [CollectionTimelineDto] })
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiServiceUnavailableResponse(UNAVAILABLE)
  listCollectionTimelines(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<CollectionTimelineDto[]> {
    return this.collections.timelinesOf(caller, id);
  }

  @Post(':id/timelines')
  @HttpCode(201)
  @SignedIn()
  @ApiParam(COLLECTION_ID)
  @ApiOperation({ summary: 'Add a timeline you may see at the end of one of your collections (adding it again changes nothing: 200)' })
  @ApiCreatedResponse({ type: CollectionTimelineDto, description: 'Added' })
  @ApiOkResponse({ type: CollectionTimelineDto, description: 'It was there already; nothing changed' })
  @ApiBadRequestResponse({ description: 'timelineId missing or not an id, unknown field' })
  @ApiForbiddenResponse(NOT_OWNER)
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiUnauthorizedResponse(SIGNED_OUT)
  @ApiServiceUnavailableResponse(UNAVAILABLE)
  async addCollectionTimeline(
    @CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Body() dto: AddCollectionTimelineDto, @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CollectionTimelineDto> {
    const { created, item } = await this.collections.add(caller, id, dto.timelineId);
    if (!created) void reply.status(200);
    return item;
  }

  @Put(':id/timelines/order')
  @SignedIn()
  @ApiParam(COLLECTION_ID)
  @ApiOperation({ summary: 'Put the timelines of one of your collections in a new order (positions 0..n-1)' })
  @ApiOkResponse({ type: [CollectionTimelineDto], description: 'The timelines in their new order, as the caller sees them' })
  @ApiBadRequestResponse({ description: "'The order must list every timeline of the collection once', ids malformed, unknown field" })
  @ApiForbiddenResponse(NOT_OWNER)
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiUnauthorizedResponse(SIGNED_OUT)
  @ApiServiceUnavailableResponse(UNAVAILABLE)
  reorderCollectionTimelines(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Body() dto: CollectionOrderDto): Promise<CollectionTimelineDto[]> {
    return this.collections.reorder(caller, id, dto.timelineIds);
  }

  @Delete(':id/timelines/:timelineId')
  @HttpCode(204)
  @SignedIn()
  @ApiParam(COLLECTION_ID)
  @ApiParam({ name: 'timelineId', description: 'The timeline to take out', format: 'uuid' })
  @ApiOperation({ summary: 'Take a timeline out of one of your collections (not in it, no change)' })
  @ApiNoContentResponse({ description: 'Not in the collection (any more)' })
  @ApiForbiddenResponse(NOT_OWNER)
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiUnauthorizedResponse(SIGNED_OUT)
  removeCollectionTimeline(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Param('timelineId') timelineId: string): Promise<void> {
    return this.collections.remove(caller, id, timelineId);
  }
}

@ApiTags('collections')
@Controller('api/timelines/:id/collections')
export class TimelineCollectionController {
  constructor(private readonly collections: CollectionService) {}

  @Get()
  @SignedIn()
  @ApiParam({ name: 'id', description: 'The timeline', format: 'uuid' })
  @ApiOperation({ summary: "The caller's collections, newest first, each saying whether it holds the timeline (the Save to collection sheet)" })
  @ApiOkResponse({ type: [TimelineCollectionDto], headers: nextCursorHeaderDoc() })
  @ApiBadRequestResponse({ description: 'Bad limit or cursor, unknown query field' })
  @ApiNotFoundResponse({ description: 'Timeline not found (or not visible to the caller)' })
  @ApiUnauthorizedResponse(SIGNED_OUT)
  @ApiServiceUnavailableResponse(UNAVAILABLE)
  async listTimelineCollections(
    @CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Query() query: PageQueryDto, @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TimelineCollectionDto[]> {
    return sendPage(reply, await this.collections.forTimeline(caller, id, query));
  }
}
