import { describe, expect, it } from '@jest/globals';
import { act, render, screen } from '@testing-library/react';
import { dismissToast, toast } from './toast-store';
import { Toaster } from './toaster';

describe('toasts', () => {
  it('shows one toast at a time: a new one replaces the last', async () => {
    render(<Toaster />);
    act(() => toast({ title: 'Link copied!', description: 'Timeline link has been copied to your clipboard.' }));
    expect(await screen.findByText('Link copied!')).toBeInTheDocument();
    act(() => toast({ title: 'Failed to copy', description: 'Could not copy link to clipboard.', variant: 'destructive' }));
    expect(await screen.findByText('Failed to copy')).toBeInTheDocument();
    expect(screen.queryByText('Link copied!')).not.toBeInTheDocument();
    act(() => dismissToast());
    expect(screen.queryByText('Failed to copy')).not.toBeInTheDocument();
  });
});
