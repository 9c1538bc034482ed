import { type DynamicModule, Module } from '@nestjs/common';
import type { MailSender } from '@timeliner/platform';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { TimelineAccess } from './access/timeline-access.service.js';
import { AnalyticsController } from './analytics/analytics.controller.js';
import { AnalyticsService } from './analytics/analytics.service.js';
import { CollaboratorController } from './collaborators/collaborator.controller.js';
import { CollaboratorService } from './collaborators/collaborator.service.js';
import { EventWriter, type IdentitySecret, MediaUrlSigner } from '@timeliner/platform';
import { InvitationController } from './invitations/invitation.controller.js';
import { InvitationService } from './invitations/invitation.service.js';
import { TimelineController } from './timelines/timeline.controller.js';
import type { SignMediaUrl } from './timelines/timeline.dto.js';
import { TimelineService } from './timelines/timeline.service.js';
import { UserDirectory } from './users/user-directory.js';

export interface TimelinesModuleDeps {
  dataSource: DataSource;
  events: EventWriter;
  access: TimelineAccess;
  users: UserDirectory;
  mail: MailSender;
  logger: Logger;
  publicOrigin: string;
  /** Keys the hash of anonymous viewers. */
  viewerKeySecret: string;
  /** The secret the media service's signed URLs are keyed from (the identity secret). */
  mediaUrlSecret: IdentitySecret;
}

/** The media service's signed URLs (same identity secret), for the thumbnails the lists show. */
const signMediaUrl = (identitySecret: IdentitySecret): SignMediaUrl => {
  const signer = new MediaUrlSigner(identitySecret);
  return (url, mediaId) => signer.sign(url, mediaId);
};

@Module({})
export class TimelinesModule {
  static forRoot(deps: TimelinesModuleDeps): DynamicModule {
    const { dataSource, events, access, users } = deps;
    return {
      module: TimelinesModule,
      controllers: [TimelineController, CollaboratorController, InvitationController, AnalyticsController],
      providers: [
        { provide: DataSource, useValue: dataSource },
        { provide: TimelineService, useValue: new TimelineService(dataSource, access, users, events, signMediaUrl(deps.mediaUrlSecret)) },
        { provide: CollaboratorService, useValue: new CollaboratorService(dataSource, access, events) },
        { provide: InvitationService, useValue: new InvitationService(dataSource, access, users, events, deps.mail, deps.logger, { publicOrigin: deps.publicOrigin }) },
        { provide: AnalyticsService, useValue: new AnalyticsService(dataSource, access, deps.viewerKeySecret, events) },
      ],
    };
  }
}
