import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCaller, SignedIn, type SignedInCaller } from '@timeliner/platform';
import { PushKeyDto, PushSubscribedDto, PushSubscriptionDto, PushUnsubscribeDto } from './push.dto.js';
import { PushService } from './push.service.js';

@ApiTags('notifications')
@Controller('api/notifications')
@SignedIn()
export class PushController {
  constructor(private readonly push: PushService) {}

  @Get('push-key')
  @ApiOperation({ summary: 'The VAPID public key to subscribe with (PushManager.subscribe applicationServerKey)' })
  @ApiOkResponse({ type: PushKeyDto })
  pushKey(): PushKeyDto {
    return this.push.key();
  }

  @Post('push-subscriptions')
  @ApiOperation({ summary: "Register this browser's Web Push subscription for the caller (again: updated, not doubled; beyond the per-person cap the oldest is dropped)" })
  @ApiCreatedResponse({ type: PushSubscribedDto })
  @ApiBadRequestResponse({ description: 'Not an https endpoint of a public push service, or keys of the wrong size' })
  @ApiConflictResponse({ description: "The endpoint is another account's, registered with other keys" })
  subscribe(@CurrentCaller() caller: SignedInCaller, @Body() dto: PushSubscriptionDto): Promise<PushSubscribedDto> {
    return this.push.subscribe(caller, dto);
  }

  @Delete('push-subscriptions')
  @HttpCode(204)
  @ApiOperation({ summary: "Stop pushing to this browser (the caller's subscription with this endpoint)" })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiNotFoundResponse({ description: 'The caller has no subscription with this endpoint' })
  unsubscribe(@CurrentCaller() caller: SignedInCaller, @Body() dto: PushUnsubscribeDto): Promise<void> {
    return this.push.unsubscribe(caller, dto);
  }
}
