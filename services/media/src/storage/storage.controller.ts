import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { CurrentCaller, SignedIn, type SignedInCaller } from '@timeliner/platform';
import { StorageQuota } from './storage-quota.js';

export class StorageUsageDto {
  @ApiProperty({ type: 'integer', description: 'Bytes stored: the originals the person uploaded plus what processing made of them (renditions, thumbnails)' })
  usedBytes: number;
  @ApiProperty({ type: 'integer', description: 'Bytes promised to resumable uploads in progress (their full length)' })
  reservedBytes: number;
  @ApiProperty({ type: 'integer', description: 'The per-person quota (STORAGE_QUOTA_MB)' })
  quotaBytes: number;
  @ApiProperty({ type: 'integer', description: 'What new uploads may still take: quota − used − reserved, never below 0' })
  remainingBytes: number;
}

@ApiTags('media')
@Controller('api/media')
export class StorageController {
  constructor(private readonly quota: StorageQuota) {}

  @Get('storage')
  @SignedIn()
  @Header('cache-control', 'no-store')
  @ApiOperation({
    summary: "The caller's storage: used, reserved by uploads in progress, quota and what is left",
    description: 'An upload (tus creation or multipart) that would pass the quota is refused with 413, its JSON body carrying remainingBytes (tus: also the Storage-Remaining-Bytes header).',
  })
  @ApiOkResponse({ type: StorageUsageDto })
  @ApiUnauthorizedResponse({ description: 'Authentication required' })
  storageUsage(@CurrentCaller() caller: SignedInCaller): Promise<StorageUsageDto> {
    return this.quota.usage(caller.userId);
  }
}
