import { describe, expect, it } from '@jest/globals';
import { actorPhrase, describe as sentence, groupKeyOf, linkOf } from './notification-kinds.js';

describe('notification wording', () => {
  it('names up to three people, then the latest two and how many others', () => {
    expect(actorPhrase([], 0)).toBe('Someone');
    expect(actorPhrase(['Ana'], 1)).toBe('Ana');
    expect(actorPhrase(['Ana', 'Ben'], 2)).toBe('Ana and Ben');
    expect(actorPhrase(['Ana', 'Ben', 'Cy'], 3)).toBe('Ana, Ben and Cy');
    expect(actorPhrase(['Ana', 'Ben', 'Cy'], 4)).toBe('Ana, Ben and 2 others');
    expect(actorPhrase(['Ana', 'Ben', 'Cy'], 14)).toBe('Ana, Ben and 12 others');
    // Someone the service has not heard of yet still counts.
    expect(actorPhrase(['Ana'], 2)).toBe('Ana and 1 other');
  });

  it('says what happened to what', () => {
    expect(sentence('like', { actorNames: ['Ana', 'Ben', 'Cy'], count: 14, targetType: 'timeline', title: 'Trip' })).toBe('Ana, Ben and 12 others liked your timeline "Trip"');
    expect(sentence('comment', { actorNames: ['Ana'], count: 1, targetType: 'post', title: null })).toBe('Ana commented on your post');
    expect(sentence('video_failed', { actorNames: [], count: 1, targetType: 'video', title: 'clip.mp4' })).toBe('Your video "clip.mp4" could not be processed');
    expect(sentence('like', { actorNames: ['Ana'], count: 1, targetType: 'video', title: 'clip.mp4', timelineTitle: 'Trip' })).toBe('Ana liked your video "clip.mp4"');
    expect(sentence('comment', { actorNames: ['Ana'], count: 1, targetType: 'video', title: null, timelineTitle: 'Trip' })).toBe('Ana commented on your video in "Trip"');
    expect(sentence('video_processed', { actorNames: [], count: 4, targetType: 'video', title: 'clip.mp4', timelineTitle: 'Trip' })).toBe('4 of your videos in "Trip" are ready to watch');
    expect(sentence('video_failed', { actorNames: [], count: 2, targetType: 'video', title: 'clip.mp4', timelineTitle: null })).toBe('2 of your videos could not be processed');
  });

  it('leads to the target in the app', () => {
    const id = '0b6f0c3e-6a3f-4d5e-9a52-0d2f8e8d6c11';
    const timelineId = '4afc471c-42b0-4b2f-a868-b5492b971057';
    expect(linkOf({ type: 'timeline', id, timelineId: id })).toBe(`/watch/${id}`);
    expect(linkOf({ type: 'video', id, timelineId })).toBe(`/watch/${timelineId}?video=${id}`);
    expect(linkOf({ type: 'post', id, timelineId: null, ownerId: timelineId })).toBe(`/post/${id}`);
    expect(linkOf({ type: 'export', id, timelineId })).toBe(`/exports/${id}`);
    expect(linkOf({ type: 'user', id, timelineId: null })).toBe(`/profile/${id}`);
    expect(linkOf({ type: 'invitation', id, timelineId })).toBe(`/invite/${id}`);
  });

  it('groups the processing of videos by timeline, everything else by target', () => {
    const target = { type: 'video' as const, id: 'v1', timelineId: 't1' };
    expect(groupKeyOf('video_processed', target)).toBe('video_processed:timeline:t1');
    expect(groupKeyOf('video_failed', target)).toBe('video_failed:timeline:t1');
    expect(groupKeyOf('like', target)).toBe('like:video:v1');
  });
});
