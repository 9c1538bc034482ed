import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentCaller, nextCursorHeaderDoc, sendPage, SignedIn, type SignedInCaller } from '@timeliner/platform';
import {
  AppealDecisionDto, AppealDto, AuditEntryDto, AuditPageQueryDto, ItemDecisionDto, LiftDto, ModerationNoticeDto, QueueDto, StaffRoleDto, SuspendDto,
} from './moderation.dto.js';
import { ModerationService } from './moderation.service.js';

const STAFF = { description: 'Only moderators and admins (granted by the operator) may use the desk' };

/** The moderation desk: moderators and admins only (every route but `role` answers 403 to anyone else). */
@ApiTags('moderation')
@Controller('api/moderation')
export class ModerationController {
  constructor(private readonly moderation: ModerationService) {}

  @Get('role')
  @SignedIn()
  @ApiOperation({ summary: "The caller's staff role: moderator, admin, or null for everyone else" })
  @ApiOkResponse({ type: StaffRoleDto })
  role(@CurrentCaller() caller: SignedInCaller): Promise<StaffRoleDto> {
    return this.moderation.role(caller);
  }

  @Get('queue')
  @SignedIn()
  @ApiOperation({ summary: 'Reported items grouped by item (the most reported first) with the item in context, and pending appeals' })
  @ApiOkResponse({ type: QueueDto })
  @ApiForbiddenResponse(STAFF)
  queue(@CurrentCaller() caller: SignedInCaller): Promise<QueueDto> {
    return this.moderation.queue(caller);
  }

  @Post('items/:type/:id/decision')
  @SignedIn()
  @HttpCode(201)
  @ApiOperation({ summary: 'Dismiss the reports of an item, hide it everywhere, restore it, mark it sensitive or warn its author' })
  @ApiCreatedResponse({ type: AuditEntryDto, description: 'The decision, as the audit log keeps it' })
  @ApiBadRequestResponse({ description: 'Unknown action, missing or too long reason, unknown field' })
  @ApiNotFoundResponse({ description: 'No such item' })
  @ApiForbiddenResponse(STAFF)
  decide(@CurrentCaller() caller: SignedInCaller, @Param('type') type: string, @Param('id') id: string, @Body() dto: ItemDecisionDto): Promise<AuditEntryDto> {
    return this.moderation.decide(caller, type, id, dto);
  }

  @Post('users/:id/suspension')
  @SignedIn()
  @HttpCode(201)
  @ApiOperation({ summary: 'Suspend an account for a number of days or for good: its sessions end at once, its content is hidden, sign-in is refused' })
  @ApiCreatedResponse({ type: AuditEntryDto })
  @ApiBadRequestResponse({ description: 'Missing reason, days out of range, oneself' })
  @ApiNotFoundResponse({ description: 'No such person' })
  @ApiForbiddenResponse(STAFF)
  suspend(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Body() dto: SuspendDto): Promise<AuditEntryDto> {
    return this.moderation.suspend(caller, id, dto);
  }

  @Post('users/:id/lift')
  @SignedIn()
  @HttpCode(201)
  @ApiOperation({ summary: "Lift an account's suspension" })
  @ApiCreatedResponse({ type: AuditEntryDto })
  @ApiNotFoundResponse({ description: 'No such person' })
  @ApiConflictResponse({ description: 'The account is not suspended' })
  @ApiForbiddenResponse(STAFF)
  lift(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Body() dto: LiftDto): Promise<AuditEntryDto> {
    return this.moderation.lift(caller, id, dto);
  }

  @Post('appeals/:id/decision')
  @SignedIn()
  @HttpCode(201)
  @ApiOperation({ summary: 'Uphold an appeal (the decision stands) or grant it (the decision is undone); its author is told' })
  @ApiCreatedResponse({ type: AuditEntryDto })
  @ApiNotFoundResponse({ description: 'No such appeal' })
  @ApiConflictResponse({ description: 'Already decided' })
  @ApiForbiddenResponse(STAFF)
  decideAppeal(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Body() dto: AppealDecisionDto): Promise<AuditEntryDto> {
    return this.moderation.decideAppeal(caller, id, dto);
  }

  @Get('audit')
  @SignedIn()
  @ApiOperation({ summary: 'The audit log, newest first: who did what, why and when' })
  @ApiOkResponse({ type: [AuditEntryDto], headers: nextCursorHeaderDoc() })
  @ApiForbiddenResponse(STAFF)
  async audit(@CurrentCaller() caller: SignedInCaller, @Query() query: AuditPageQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<AuditEntryDto[]> {
    return sendPage(reply, await this.moderation.audit(caller, query));
  }
}

/** What moderators did about the caller's own content or account, and their one appeal of each decision. */
@ApiTags('moderation')
@Controller('api/moderation-notices')
export class ModerationNoticeController {
  constructor(private readonly moderation: ModerationService) {}

  @Get()
  @SignedIn()
  @ApiOperation({ summary: "Moderators' decisions about the caller's content or account, newest first, with the state of each appeal" })
  @ApiOkResponse({ type: [ModerationNoticeDto] })
  notices(@CurrentCaller() caller: SignedInCaller): Promise<ModerationNoticeDto[]> {
    return this.moderation.notices(caller);
  }

  @Post(':actionId/appeal')
  @SignedIn()
  @HttpCode(201)
  @ApiOperation({ summary: 'Appeal a decision once; the appeal joins the moderators\' queue' })
  @ApiCreatedResponse({ type: ModerationNoticeDto })
  @ApiBadRequestResponse({ description: 'Missing or too long text, unknown field' })
  @ApiNotFoundResponse({ description: "No such decision about the caller's content or account" })
  @ApiConflictResponse({ description: 'Already appealed' })
  appeal(@CurrentCaller() caller: SignedInCaller, @Param('actionId') actionId: string, @Body() dto: AppealDto): Promise<ModerationNoticeDto> {
    return this.moderation.appeal(caller, actionId, dto);
  }
}
