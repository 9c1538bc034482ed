import { busEntities, personFilterCopyEntities } from '@timeliner/platform';
import { CaptionCue, CaptionTrack } from './captions/caption-cue.entity.js';
import { Hashtag, HashtagUse, TaggedPost } from './hashtags/hashtag.entity.js';
import { SearchHistoryEntry } from './history/search-history.entity.js';
import { DeletedTimeline, SearchTimeline, SearchWord, SearchWordEdit, TimelineEngagement } from './timelines/search-timeline.entity.js';
import { SearchUser } from './users/search-user.entity.js';

export const searchEntities = [SearchTimeline, DeletedTimeline, TimelineEngagement, SearchWord, SearchWordEdit, SearchUser, Hashtag, HashtagUse, TaggedPost, SearchHistoryEntry, CaptionTrack, CaptionCue, ...personFilterCopyEntities, ...busEntities];
