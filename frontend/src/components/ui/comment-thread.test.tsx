import { describe, expect, it, jest } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CommentThread, type ThreadComment } from './comment-thread';

const comment = (id: string, content: string, marks: Partial<ThreadComment> = {}): ThreadComment => ({
  id, content, createdAt: new Date().toISOString(), user: { displayName: `Author ${id}`, username: `a${id}`, avatar: null }, ...marks,
});

describe('CommentThread with comment controls', () => {
  const base = { label: 'Comments on Trip', loading: false, failed: false, pending: false, onSubmit: async () => true };

  it('says why instead of showing the comment field', () => {
    render(<CommentThread {...base} comments={[]} closedReason="Comments are turned off for this" />);
    expect(screen.getByRole('note')).toHaveTextContent('Comments are turned off for this');
    expect(screen.queryByPlaceholderText('Write a comment...')).toBeNull();
  });

  it('marks pinned and held comments, and gives moderators approve, pin and delete', async () => {
    const onApprove = jest.fn();
    const onPin = jest.fn();
    const onDelete = jest.fn();
    render(<CommentThread {...base} comments={[comment('1', 'First', { pinned: true }), comment('2', 'Second', { held: true })]} onApprove={onApprove} onPin={onPin} onDelete={onDelete} />);
    const [pinned, held] = screen.getAllByRole('listitem');
    expect(pinned).toHaveTextContent('Pinned');
    expect(held).toHaveTextContent('Waiting for approval');
    expect(screen.queryByRole('button', { name: 'Approve comment from Author 1' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Pin comment from Author 2' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Approve comment from Author 2' }));
    await userEvent.click(screen.getByRole('button', { name: 'Unpin comment from Author 1' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete comment from Author 2' }));
    expect(onApprove).toHaveBeenCalledWith(expect.objectContaining({ id: '2' }));
    expect(onPin).toHaveBeenCalledWith(expect.objectContaining({ id: '1' }));
    expect(onDelete).toHaveBeenCalledWith(expect.objectContaining({ id: '2' }));
    expect(screen.getByPlaceholderText('Write a comment...')).toBeTruthy();
  });

  it('marks a comment the moderators hid (only staff are sent one) "Hidden by moderators"', () => {
    render(<CommentThread {...base} comments={[comment('1', 'Out of line', { removedByModerators: true }), comment('2', 'Fine')]} />);
    const [hidden, shown] = screen.getAllByRole('listitem');
    expect(hidden).toHaveTextContent('Hidden by moderators');
    expect(hidden).toHaveTextContent('Out of line');
    expect(shown).not.toHaveTextContent('Hidden by moderators');
  });

  it('shows no controls to others', () => {
    render(<CommentThread {...base} comments={[comment('1', 'First')]} />);
    expect(screen.queryByRole('button', { name: /comment from/ })).toBeNull();
  });
});
