import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { createTestQueryClient } from '../../testing/test-utils';
import { TimelineOptions } from './timeline-options';

function renderOptions() {
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <MemoryRouter>
        <TimelineOptions timelineId="t1" title="Summer Trip" isCreator onReport={() => undefined} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('timeline options on a phone', () => {
  beforeEach(() => {
    window.matchMedia = ((query: string) => ({
      matches: query.includes('max-width'),
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    })) as unknown as typeof window.matchMedia;
  });
  afterEach(() => {
    // @ts-expect-error jsdom has no matchMedia of its own
    delete window.matchMedia;
  });

  it('opens the Timeline Options sheet on the first tap, while its code loads, and gives focus back to the button on closing', async () => {
    const user = userEvent.setup();
    renderOptions();
    const button = screen.getByRole('button', { name: 'Options for Summer Trip' });
    expect(button).toHaveAttribute('aria-haspopup', 'dialog');

    await user.click(button);
    const sheet = await screen.findByRole('dialog', { name: 'Timeline Options' });
    expect(Array.from(sheet.querySelectorAll('li')).map((item) => item.textContent)).toEqual(['View Timeline', 'Save to collection', 'Timeline Settings', 'Report Post']);

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Timeline Options' })).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Options for Summer Trip' })).toHaveFocus());

    // Later taps open it from its own button, as any dialog.
    await user.click(screen.getByRole('button', { name: 'Options for Summer Trip' }));
    expect(await screen.findByRole('dialog', { name: 'Timeline Options' })).toBeInTheDocument();
  });
});
