import { type DynamicModule, Module } from '@nestjs/common';
import { EventWriter, type IdentitySecret, type MailSender, MediaUrlSigner, Transactions } from '@timeliner/platform';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { TimelineAccess } from './access/timeline-access.service.js';
import { AnalyticsController } from './analytics/analytics.controller.js';
import { AnalyticsRepository } from './analytics/analytics.repository.js';
import { AnalyticsService } from './analytics/analytics.service.js';
import { CollaboratorController } from './collaborators/collaborator.controller.js';
import { CollaboratorRepository } from './collaborators/collaborator.repository.js';
import { CollaboratorService } from './collaborators/collaborator.service.js';
import { InvitationController } from './invitations/invitation.controller.js';
import { InvitationRepository } from './invitations/invitation.repository.js';
import { type InvitationMailLimits, InvitationService } from './invitations/invitation.service.js';
import { TimelineController } from './timelines/timeline.controller.js';
import type { SignMediaUrl } from './timelines/timeline.dto.js';
import { TimelineRepository } from './timelines/timeline.repository.js';
import { TimelineService } from './timelines/timeline.service.js';
import { UserDirectory } from './users/user-directory.js';
import { WatchPositionController } from './watch-positions/watch-position.controller.js';
import { WatchPositionRepository } from './watch-positions/watch-position.repository.js';
import { WatchPositionService } from './watch-positions/watch-position.service.js';

export interface TimelinesModuleDeps {
  dataSource: DataSource;
  events: EventWriter;
  /** The access policy, shared with the CheckAccess responder. */
  access: TimelineAccess;
  /** People: the read model and the auth service's lookup. */
  users: UserDirectory;
  mail: MailSender;
  logger: Logger;
  publicOrigin: string | undefined;
  /** Invitation e-mails one person may send per hour and per day. */
  invitationMailLimits?: InvitationMailLimits;
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

/** Timelines, their teams and invitations, and their analytics. */
@Module({})
export class TimelinesModule {
  static forRoot(deps: TimelinesModuleDeps): DynamicModule {
    return {
      module: TimelinesModule,
      controllers: [TimelineController, CollaboratorController, InvitationController, AnalyticsController, WatchPositionController],
      providers: [
        { provide: DataSource, useValue: deps.dataSource },
        { provide: EventWriter, useValue: deps.events },
        { provide: TimelineAccess, useValue: deps.access },
        { provide: UserDirectory, useValue: deps.users },
        { provide: Transactions, useFactory: (ds: DataSource) => new Transactions(ds), inject: [DataSource] },
        { provide: TimelineRepository, useFactory: (ds: DataSource) => new TimelineRepository(ds), inject: [DataSource] },
        { provide: CollaboratorRepository, useFactory: (ds: DataSource) => new CollaboratorRepository(ds), inject: [DataSource] },
        { provide: InvitationRepository, useFactory: (ds: DataSource) => new InvitationRepository(ds), inject: [DataSource] },
        { provide: AnalyticsRepository, useFactory: (ds: DataSource) => new AnalyticsRepository(ds), inject: [DataSource] },
        { provide: WatchPositionRepository, useFactory: (ds: DataSource) => new WatchPositionRepository(ds), inject: [DataSource] },
        {
          provide: WatchPositionService,
          useFactory: (positions: WatchPositionRepository, access: TimelineAccess) => new WatchPositionService(positions, access),
          inject: [WatchPositionRepository, TimelineAccess],
        },
        {
          provide: TimelineService,
          useFactory: (tx: Transactions, timelines: TimelineRepository, collaborators: CollaboratorRepository, access: TimelineAccess, users: UserDirectory, events: EventWriter) =>
            new TimelineService(tx, timelines, collaborators, access, users, events, signMediaUrl(deps.mediaUrlSecret)),
          inject: [Transactions, TimelineRepository, CollaboratorRepository, TimelineAccess, UserDirectory, EventWriter],
        },
        {
          provide: CollaboratorService,
          useFactory: (tx: Transactions, collaborators: CollaboratorRepository, timelines: TimelineRepository, access: TimelineAccess, events: EventWriter) =>
            new CollaboratorService(tx, collaborators, timelines, access, events),
          inject: [Transactions, CollaboratorRepository, TimelineRepository, TimelineAccess, EventWriter],
        },
        {
          provide: InvitationService,
          useFactory: (tx: Transactions, invitations: InvitationRepository, collaborators: CollaboratorRepository, timelines: TimelineRepository, access: TimelineAccess, users: UserDirectory, events: EventWriter) =>
            new InvitationService(tx, invitations, collaborators, timelines, access, users, events, deps.mail, deps.logger, {
              publicOrigin: deps.publicOrigin,
              ...(deps.invitationMailLimits ? { mailLimits: deps.invitationMailLimits } : {}),
            }),
          inject: [Transactions, InvitationRepository, CollaboratorRepository, TimelineRepository, TimelineAccess, UserDirectory, EventWriter],
        },
        {
          provide: AnalyticsService,
          useFactory: (tx: Transactions, analytics: AnalyticsRepository, access: TimelineAccess, events: EventWriter) => new AnalyticsService(tx, analytics, access, deps.viewerKeySecret, events),
          inject: [Transactions, AnalyticsRepository, TimelineAccess, EventWriter],
        },
      ],
    };
  }
}
