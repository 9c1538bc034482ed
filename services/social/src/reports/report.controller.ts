import { Body, Controller, Post, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentCaller, SignedIn, type SignedInCaller } from '@timeliner/platform';
import { CreateReportDto, ReportDto } from './report.dto.js';
import { ReportService } from './report.service.js';

@ApiTags('reports')
@Controller('api/reports')
export class ReportController {
  constructor(private readonly reports: ReportService) {}

  @Post()
  @SignedIn()
  @ApiOperation({ summary: 'Report a post, timeline or comment (once per person and item); it leaves the reporter\'s feed' })
  @ApiCreatedResponse({ type: ReportDto, description: 'Report filed' })
  @ApiOkResponse({ type: ReportDto, description: 'Already reported by the caller: the first report, unchanged' })
  @ApiBadRequestResponse({ description: 'Unknown content type or reason, bad id, description too long, unknown field' })
  @ApiNotFoundResponse({ description: 'Nothing of that type and id that the caller may see' })
  @ApiUnauthorizedResponse({ description: 'Not signed in' })
  async fileReport(@CurrentCaller() caller: SignedInCaller, @Body() dto: CreateReportDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<ReportDto> {
    const { report, created } = await this.reports.file(caller, dto);
    void reply.status(created ? 201 : 200);
    return report;
  }
}
