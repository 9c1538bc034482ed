import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { DataExport } from './data-export.entity.js';

export class DataExportDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ enum: ['queued', 'processing', 'completed', 'error', 'expired'], description: 'expired: the file was deleted seven days after it was made' })
  status: string;

  @ApiProperty({ enum: ['waiting', 'records', 'files', 'finishing', 'done'], description: 'What is being gathered: the records from every service, then the original files, then the archive is closed' })
  phase: string;

  @ApiProperty({ minimum: 0, maximum: 100, description: 'Whole percent' })
  progress: number;

  @ApiProperty({ example: 'timeliner-data-2026-11-28.zip' })
  fileName: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiPropertyOptional({ format: 'date-time' })
  completedAt?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'When the link stops working and the file is deleted (seven days after completion)' })
  expiresAt?: string;

  @ApiPropertyOptional({ description: 'Size of the ZIP in bytes, once completed' })
  sizeBytes?: number;

  @ApiPropertyOptional({ description: 'Once completed: GET it to download the ZIP (signed until expiresAt, no bearer header needed)' })
  downloadUrl?: string;

  @ApiPropertyOptional({ description: 'Once failed: why' })
  error?: string;
}

export class DataExportStateDto {
  @ApiProperty({ type: DataExportDto, nullable: true, description: "The person's newest export; null when they never asked for one" })
  export: DataExportDto | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When a new export may start (one a day); null: now' })
  nextExportAt: string | null;
}

export const mapDataExport = (row: DataExport, downloadUrl?: string): DataExportDto => ({
  id: row.id,
  status: row.status,
  phase: row.phase,
  progress: row.progress,
  fileName: row.fileName,
  createdAt: row.createdAt.toISOString(),
  ...(row.completedAt ? { completedAt: row.completedAt.toISOString() } : {}),
  ...(row.expiresAt ? { expiresAt: row.expiresAt.toISOString() } : {}),
  ...(row.sizeBytes !== null && row.status === 'completed' ? { sizeBytes: Number(row.sizeBytes) } : {}),
  ...(downloadUrl ? { downloadUrl } : {}),
  ...(row.status === 'error' ? { error: row.error ?? 'unknown error' } : {}),
});
