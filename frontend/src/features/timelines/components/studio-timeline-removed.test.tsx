import { describe, expect, it } from '@jest/globals';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { timelineFixture } from '../../../testing/api-mocks';
import type { MyTimeline } from '../api/get-my-timelines';
import { StudioTimelineCard } from './studio-timeline-card';

const card = (overrides: Record<string, unknown>) =>
  render(
    <MemoryRouter>
      <StudioTimelineCard timeline={timelineFixture(overrides) as unknown as MyTimeline} />
    </MemoryRouter>,
  );

/** Issue 28 item 5: the author of a timeline the moderators hid sees it marked so in the studio, with the way to the notice. */
describe('a removed timeline in the studio', () => {
  it('says "Removed by moderators" with a link to the notice', () => {
    card({ removedByModerators: true });
    const note = screen.getByRole('note');
    expect(note).toHaveTextContent('Removed by moderators Only you can see it.');
    expect(within(note).getByRole('link', { name: 'See why' })).toHaveAttribute('href', '/moderation/notices');
  });

  it('says nothing of the kind otherwise', () => {
    card({ removedByModerators: false });
    expect(screen.queryByText('Removed by moderators')).not.toBeInTheDocument();
  });
});
