import { type DynamicModule, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CaptionSearchRepository } from './captions/caption-search.repository.js';
import { DiscoverController } from './discover/discover.controller.js';
import { DiscoverRepository } from './discover/discover.repository.js';
import { DiscoverService } from './discover/discover.service.js';
import { SearchHistoryController } from './history/search-history.controller.js';
import { SearchHistoryRepository } from './history/search-history.repository.js';
import { SearchHistoryService } from './history/search-history.service.js';
import { SearchController } from './search/search.controller.js';
import { SearchRepository } from './search/search.repository.js';
import { SearchService } from './search/search.service.js';

export interface SearchModuleDeps {
  dataSource: DataSource;
}

/** Search, discovery (popular timelines, trending hashtags) and people's recent searches. */
@Module({})
export class SearchModule {
  static forRoot(deps: SearchModuleDeps): DynamicModule {
    return {
      module: SearchModule,
      controllers: [SearchController, SearchHistoryController, DiscoverController],
      providers: [
        { provide: DataSource, useValue: deps.dataSource },
        { provide: SearchRepository, useFactory: (ds: DataSource) => new SearchRepository(ds), inject: [DataSource] },
        { provide: SearchHistoryRepository, useFactory: (ds: DataSource) => new SearchHistoryRepository(ds), inject: [DataSource] },
        { provide: CaptionSearchRepository, useFactory: (ds: DataSource) => new CaptionSearchRepository(ds), inject: [DataSource] },
        { provide: DiscoverRepository, useFactory: (ds: DataSource) => new DiscoverRepository(ds), inject: [DataSource] },
        {
          provide: SearchService,
          useFactory: (search: SearchRepository, history: SearchHistoryRepository, captions: CaptionSearchRepository) => new SearchService(search, history, captions),
          inject: [SearchRepository, SearchHistoryRepository, CaptionSearchRepository],
        },
        { provide: SearchHistoryService, useFactory: (history: SearchHistoryRepository) => new SearchHistoryService(history), inject: [SearchHistoryRepository] },
        { provide: DiscoverService, useFactory: (discover: DiscoverRepository) => new DiscoverService(discover), inject: [DiscoverRepository] },
      ],
    };
  }
}
