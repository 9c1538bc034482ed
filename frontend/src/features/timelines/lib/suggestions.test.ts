import { describe, expect, it } from '@jest/globals';
import { computeSuggestions, type SuggestionInput } from './suggestions';

const base: SuggestionInput['timeline'] = {
  description: 'A walk through the old town',
  status: 'published',
  visibility: 'public',
  videoCount: 4,
  commentsCount: 2,
};

const analytics = {
  totalViews: 40,
  uniqueViewers: 30,
  avgWatchTime: 80,
  completionRate: 80,
  shares: 3,
  downloads: 0,
  peakViewingTime: null,
  viewsByDay: [],
  topRegions: [],
  hasData: true,
};

const ids = (input: SuggestionInput) => computeSuggestions(input).map((suggestion) => suggestion.id);

describe('computed suggestions', () => {
  it('has nothing to suggest for a complete, published, well-watched timeline with a team', () => {
    expect(computeSuggestions({ timeline: base, isOwner: true, analytics, teamSize: 2, pendingInvitations: 0 })).toEqual([]);
  });

  it('asks for a first video, a description and an editor from the timeline’s own fields', () => {
    const suggestions = computeSuggestions({
      timeline: { ...base, description: null, status: 'draft', videoCount: 0, commentsCount: 0 },
      isOwner: true,
      teamSize: 0,
      pendingInvitations: 0,
    });
    expect(suggestions.map((suggestion) => suggestion.title)).toEqual([
      'No videos yet: upload your first video',
      'Add a description',
      'Invite an editor',
    ]);
    expect(suggestions.map((suggestion) => suggestion.action)).toEqual(['upload', 'settings', 'invite']);
  });

  it('suggests publishing a draft that has videos, quoting its real video count', () => {
    const [publish] = computeSuggestions({ timeline: { ...base, status: 'draft', videoCount: 1 }, isOwner: true });
    expect(publish).toMatchObject({ id: 'publish', title: 'Publish your timeline' });
    expect(publish?.description).toContain('1 video but');
  });

  it('leaves owner-only steps out for an editor', () => {
    expect(ids({ timeline: { ...base, description: '', status: 'draft' }, isOwner: false })).not.toEqual(
      expect.arrayContaining(['add-description']),
    );
    expect(ids({ timeline: { ...base, status: 'draft' }, isOwner: false })).not.toContain('publish');
  });

  it('does not suggest inviting while the team is unknown or someone is already invited', () => {
    expect(ids({ timeline: base, isOwner: true })).not.toContain('invite-editor');
    expect(ids({ timeline: base, isOwner: true, teamSize: 0, pendingInvitations: 1 })).not.toContain('invite-editor');
  });

  it('works from the analytics: no views yet, low completion, no shares, peak time', () => {
    expect(ids({ timeline: base, isOwner: true, analytics: { ...analytics, hasData: false, totalViews: 0 } })).toContain('first-views');
    const low = computeSuggestions({ timeline: base, isOwner: true, analytics: { ...analytics, completionRate: 25 } });
    expect(low.find((suggestion) => suggestion.id === 'completion')?.description).toContain('Only 25% of views');
    const unshared = computeSuggestions({ timeline: base, isOwner: true, analytics: { ...analytics, shares: 0 } });
    expect(unshared.find((suggestion) => suggestion.id === 'encourage-sharing')?.description).toContain('40 views and no shares');
    const peak = computeSuggestions({ timeline: base, isOwner: true, analytics: { ...analytics, peakViewingTime: '8 PM' } });
    expect(peak.find((suggestion) => suggestion.id === 'peak-time')?.description).toContain('8 PM');
  });

  it('points a published private timeline at its visibility', () => {
    expect(ids({ timeline: { ...base, visibility: 'private' }, isOwner: true })).toContain('choose-visibility');
  });
});
