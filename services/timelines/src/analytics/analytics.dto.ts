import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNumber, IsOptional, IsString, Max, MaxLength, Min, registerDecorator, type ValidationOptions } from 'class-validator';
import type { AnalyticsFigures } from './analytics.repository.js';
import type { EngagementKind } from './timeline-view.entity.js';

const isTimeZone = (value: unknown): boolean => {
  if (typeof value !== 'string') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
};

/** An IANA time zone name (`Europe/Paris`, and zones without a region such as `UTC` or `Etc/GMT+2`). */
function IsTimeZone(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({ name: 'isTimeZone', target: target.constructor, propertyName, ...(options ? { options } : {}), validator: { validate: isTimeZone } });
}

const WATCH_TIME = 'Watch time must be a number of seconds from 0 to 86400';
const COMPLETION = 'Completion must be a number from 0 to 1';

export class RecordViewDto {
  @ApiProperty({ minimum: 0, maximum: 86400, description: 'Seconds watched' })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: WATCH_TIME })
  @Min(0, { message: WATCH_TIME })
  @Max(86400, { message: WATCH_TIME })
  watchTime: number;

  @ApiProperty({ minimum: 0, maximum: 1, description: 'Share of the timeline watched' })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: COMPLETION })
  @Min(0, { message: COMPLETION })
  @Max(1, { message: COMPLETION })
  completion: number;

  @ApiPropertyOptional({ example: 'Europe/Paris', description: "The viewer's IANA time zone; only its region ('Europe') is kept" })
  @IsOptional()
  @IsString({ message: 'Time zone must be an IANA name such as Europe/Paris' })
  @MaxLength(64, { message: 'Time zone must be an IANA name such as Europe/Paris' })
  @IsTimeZone({ message: 'Time zone must be an IANA name such as Europe/Paris' })
  timeZone?: string;
}

export const SHARE_CHANNELS = ['link', 'twitter', 'facebook', 'linkedin', 'email', 'sms', 'embed', 'other'] as const;
export type ShareChannel = (typeof SHARE_CHANNELS)[number];

export class RecordShareDto {
  @ApiPropertyOptional({ enum: SHARE_CHANNELS })
  @IsOptional()
  @IsIn(SHARE_CHANNELS, { message: `Channel must be one of: ${SHARE_CHANNELS.join(', ')}` })
  channel?: ShareChannel;
}

export class DayViewsDto {
  @ApiProperty({ example: '2026-01-31', description: 'UTC day' }) day: string;
  @ApiProperty() views: number;
}

export class RegionViewsDto {
  @ApiProperty({ example: 'Europe', description: "Continent from viewers' time zones; 'Unknown' without one" }) region: string;
  @ApiProperty() views: number;
  @ApiProperty({ description: 'Share of all views, in percent (one decimal)' }) percentage: number;
}

/** Computed from recorded views, shares and downloads only; an untouched timeline reads zeros. */
export class AnalyticsDto {
  @ApiProperty() totalViews: number;
  @ApiProperty() uniqueViewers: number;
  @ApiProperty({ description: 'Mean seconds watched per view (one decimal)' }) avgWatchTime: number;
  @ApiProperty({ description: 'Mean share watched per view, in percent (one decimal)' }) completionRate: number;
  @ApiProperty() shares: number;
  @ApiProperty() downloads: number;
  @ApiProperty({ type: String, nullable: true, example: '18:00', description: 'UTC hour with the most views' }) peakViewingTime: string | null;
  @ApiProperty({ type: [DayViewsDto], description: 'The last 30 UTC days, oldest first, zeros included' }) viewsByDay: DayViewsDto[];
  @ApiProperty({ type: [RegionViewsDto], description: 'Up to 5 regions, most views first' }) topRegions: RegionViewsDto[];
  @ApiProperty({ description: 'Whether anything was recorded yet' }) hasData: boolean;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

export function mapAnalytics({ totals, engagements, peak, days, regions }: AnalyticsFigures): AnalyticsDto {
  const totalViews = Number(totals?.total ?? 0);
  const countOf = (kind: EngagementKind) => Number(engagements.find((e) => e.kind === kind)?.n ?? 0);
  const shares = countOf('share');
  const downloads = countOf('download');
  return {
    totalViews,
    uniqueViewers: Number(totals?.viewers ?? 0),
    avgWatchTime: round1(Number(totals?.watch ?? 0)),
    completionRate: round1(Number(totals?.completion ?? 0) * 100),
    shares,
    downloads,
    peakViewingTime: peak ? `${String(peak.hour).padStart(2, '0')}:00` : null,
    viewsByDay: days.map((d) => ({ day: d.day, views: Number(d.views) })),
    topRegions: regions.map((r) => ({ region: r.region, views: Number(r.views), percentage: round1((Number(r.views) / totalViews) * 100) })),
    hasData: totalViews + shares + downloads > 0,
  };
}
