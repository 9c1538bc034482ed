import { testUser } from '../../testing/test-utils';

const at = (day: number) => new Date(Date.UTC(2025, 2, 10 + day, 12)).toISOString();

export const C1 = '11111111-1111-4111-8111-111111111111';
export const C2 = '22222222-2222-4222-8222-222222222222';
export const T1 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
export const T2 = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
export const T3 = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';
export const STRANGER = '99999999-9999-4999-8999-999999999999';

export function collectionFixture(overrides: Record<string, unknown> = {}) {
  return {
    id: C1,
    userId: testUser.id,
    name: 'Road trips',
    description: 'Long drives',
    isPublic: true,
    timelinesCount: 2,
    createdAt: at(0),
    updatedAt: at(1),
    ...overrides,
  };
}

export function collectionTimelineFixture(overrides: Record<string, unknown> = {}) {
  return {
    id: T1,
    title: 'Summer Trip',
    description: 'Along the coast',
    videoCount: 3,
    duration: 185,
    creatorId: testUser.id,
    creatorName: testUser.displayName,
    coverMediaId: null,
    addedAt: at(2),
    position: 0,
    ...overrides,
  };
}
