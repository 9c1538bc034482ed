import { type DynamicModule, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EventWriter, type TimelineAccess } from '@timeliner/platform';
import { TimelineCommentController } from './timeline-comments/timeline-comment.controller.js';
import { TimelineCommentRepository } from './timeline-comments/timeline-comment.repository.js';
import { TimelineCommentService } from './timeline-comments/timeline-comment.service.js';

export interface SocialModuleDeps {
  dataSource: DataSource;
  events: EventWriter;
  timelineAccess: TimelineAccess;
}

/** Injection token of the timelines-service port. */
export const TIMELINE_ACCESS = Symbol('TimelineAccess');

/**
 * One controller, service and repository per resource (timeline comments today; posts, likes,
 * bookmarks, follows and collections each get their own folder and join the lists below).
 */
@Module({})
export class SocialModule {
  static forRoot(deps: SocialModuleDeps): DynamicModule {
    return {
      module: SocialModule,
      controllers: [TimelineCommentController],
      providers: [
        { provide: DataSource, useValue: deps.dataSource },
        { provide: EventWriter, useValue: deps.events },
        { provide: TIMELINE_ACCESS, useValue: deps.timelineAccess },
        { provide: TimelineCommentRepository, useFactory: (ds: DataSource) => new TimelineCommentRepository(ds), inject: [DataSource] },
        {
          provide: TimelineCommentService,
          useFactory: (ds: DataSource, comments: TimelineCommentRepository, access: TimelineAccess, events: EventWriter) => new TimelineCommentService(ds, comments, access, events),
          inject: [DataSource, TimelineCommentRepository, TIMELINE_ACCESS, EventWriter],
        },
      ],
    };
  }
}
