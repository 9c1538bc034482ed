import { busEntities } from '@timeliner/platform';
import { Hashtag, HashtagUse, TaggedPost } from './hashtags/hashtag.entity.js';
import { SearchHistoryEntry } from './history/search-history.entity.js';
import { DeletedTimeline, SearchTimeline, SearchWord, TimelineEngagement } from './timelines/search-timeline.entity.js';
import { SearchUser } from './users/search-user.entity.js';

export const searchEntities = [SearchTimeline, DeletedTimeline, TimelineEngagement, SearchWord, SearchUser, Hashtag, HashtagUse, TaggedPost, SearchHistoryEntry, ...busEntities];
