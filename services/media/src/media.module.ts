import { type DynamicModule, Module } from '@nestjs/common';
import { AvatarsController } from './avatars/avatars.controller.js';
import { AvatarsService } from './avatars/avatars.service.js';
import { ExportFileController, TimelineExportController } from './exports/exports.controller.js';
import { ExportsService } from './exports/exports.service.js';
import { MediaFileController, TimelineMediaController, VideoController } from './media/media.controller.js';
import { MediaService } from './media/media.service.js';
import { SimpleUploads } from './uploads/simple-uploads.js';
import { TusController } from './uploads/tus.controller.js';
import { TusUploads } from './uploads/tus-uploads.js';

export interface MediaModuleDeps {
  media: MediaService;
  tus: TusUploads;
  simple: SimpleUploads;
  exports: ExportsService;
  avatars: AvatarsService;
}

/** The media API: timeline media lists and writes, objects, resumable and simple uploads, exports, profile pictures. */
@Module({})
export class MediaModule {
  static forRoot(deps: MediaModuleDeps): DynamicModule {
    return {
      module: MediaModule,
      controllers: [TusController, TimelineMediaController, VideoController, MediaFileController, TimelineExportController, ExportFileController, AvatarsController],
      providers: [
        { provide: MediaService, useValue: deps.media },
        { provide: TusUploads, useValue: deps.tus },
        { provide: SimpleUploads, useValue: deps.simple },
        { provide: ExportsService, useValue: deps.exports },
        { provide: AvatarsService, useValue: deps.avatars },
      ],
    };
  }
}
