import { describe, expect, it, jest } from '@jest/globals';
import { fireEvent, render, screen } from '@testing-library/react';
import { CommentTimesContext } from './comment-times';
import { FilteredCommentText } from './filtered-comment-text';

describe("times written in a comment", () => {
  it('are plain text away from the video (a feed card, a timeline page)', () => {
    render(<FilteredCommentText className="c" text="Best part at 1:23" />);
    expect(screen.getByText('Best part at 1:23')).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('seek the video beside it, up to its length', () => {
    const onSeek = jest.fn();
    render(
      <CommentTimesContext.Provider value={{ duration: 120, onSeek }}>
        <FilteredCommentText className="c" text="From 1:23 to 01:02:03, not 12:30pm" />
      </CommentTimesContext.Provider>,
    );
    expect(screen.getAllByRole('button').map((button) => button.textContent)).toEqual(['1:23']);
    fireEvent.click(screen.getByRole('button', { name: 'Play from 1:23' }));
    expect(onSeek).toHaveBeenCalledWith(83);
  });

  it('stay hidden with a comment the filters hide, until Show', () => {
    render(
      <CommentTimesContext.Provider value={{ duration: 0, onSeek: () => undefined }}>
        <FilteredCommentText className="c" text="at 0:10" hidden />
      </CommentTimesContext.Provider>,
    );
    expect(screen.queryByRole('button', { name: 'Play from 0:10' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(screen.getByRole('button', { name: 'Play from 0:10' })).toBeInTheDocument();
  });
});
