import { describe, expect, it } from '@jest/globals';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef } from 'react';
import { errorResponse, mockApi, noContent } from '../../../testing/api-mocks';
import { videoFixture } from '../../../testing/media-fixtures';
import { createTestQueryClient, jsonResponse } from '../../../testing/test-utils';
import { altTextProblem } from '../lib/alt-text';
import { UploadManager, type UploadCallbacks } from '../lib/upload-manager';
import { AltTextEditor } from './alt-text-editor';
import { MediaUploadArea } from './media-upload-area';
import { MissingAltText, missingSummary } from './missing-alt-text';
import PlayerAltText from './player-alt-text';
import PublishAltTextCheck from './publish-alt-text-check';

const wrap = (ui: React.ReactNode) => render(<QueryClientProvider client={createTestQueryClient()}>{ui}</QueryClientProvider>);

describe('alt text rules in the browser', () => {
  it('asks for text and keeps to the server limits, counting an emoji as one character', () => {
    expect(altTextProblem('image', '   ')).toBe('Alt text is required');
    expect(altTextProblem('video', '')).toBe('The description is required');
    expect(altTextProblem('image', 'a'.repeat(1500))).toBeNull();
    expect(altTextProblem('image', 'a'.repeat(1501))).toBe('Alt text must be at most 1500 characters');
    expect(altTextProblem('video', '🎬'.repeat(500))).toBeNull();
    expect(altTextProblem('video', '🎬'.repeat(501))).toBe('The description must be at most 500 characters');
  });

  it('says how many items still lack it', () => {
    expect(missingSummary(0)).toBe('Every image and video has alt text or a description.');
    expect(missingSummary(1)).toBe('1 item is missing alt text or a description');
    expect(missingSummary(4)).toBe('4 items are missing alt text or a description');
  });
});

describe('the prompt after an upload', () => {
  function setup() {
    const uploads: UploadCallbacks[] = [];
    const queue = new UploadManager({
      timelineId: 't1',
      gapMs: 0,
      autoStart: true,
      transport: (_file, _timeline, callbacks) => {
        uploads.push(callbacks);
        return { abort: () => undefined };
      },
    });
    wrap(<MediaUploadArea timelineId="t1" queue={queue} />);
    const store = (index: number, mediaId: string) =>
      act(() => {
        uploads[index]!.onMediaId(mediaId);
        uploads[index]!.onProgress(10, 10);
        uploads[index]!.onSuccess();
      });
    return { uploads, queue, store };
  }

  it('asks an image for alt text once it is stored, saves it, and asks no more', async () => {
    const { requests } = mockApi({ 'PUT /api/videos/m1/alt-text': jsonResponse(200, videoFixture({ id: 'm1', mediaType: 'image', altText: 'A red kite' })) });
    const { store } = setup();
    fireEvent.change(screen.getByLabelText('Choose videos or images to upload'), { target: { files: [new File(['x'], 'kite.png', { type: 'image/png' })] } });
    expect(screen.queryByText('This image needs alt text')).not.toBeInTheDocument();
    store(0, 'm1');
    expect(await screen.findByText('This image needs alt text')).toBeInTheDocument();
    const field = screen.getByRole('textbox', { name: 'Alt text for kite.png' });
    expect(screen.getByText('0 / 1500 characters')).toBeInTheDocument();

    // Nothing typed: said at once, nothing sent.
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Alt text is required');
    expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(0);

    await userEvent.type(field, '  A red kite ');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByText('This image needs alt text')).not.toBeInTheDocument());
    expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({ altText: 'A red kite' });
  });

  it('"Add later" tells the server and closes the prompt for that item only', async () => {
    const { requests } = mockApi({ 'POST /api/videos/v1/alt-text/later': noContent() });
    const { store } = setup();
    fireEvent.change(screen.getByLabelText('Choose videos or images to upload'), {
      target: { files: [new File(['x'], 'beach.mp4', { type: 'video/mp4' }), new File(['y'], 'dunes.mp4', { type: 'video/mp4' })] },
    });
    store(0, 'v1');
    expect(await screen.findByText('This video needs a description')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByRole('textbox')).toHaveLength(1));
    await act(async () => new Promise((resolve) => setTimeout(resolve, 5)));
    store(1, 'v2');
    expect(await screen.findByText('2 uploads need alt text or a description')).toBeInTheDocument();

    const first = screen.getByRole('form', { name: 'Description of beach.mp4' });
    fireEvent.click(within(first).getByRole('button', { name: 'Add later' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Description of beach.mp4' })).not.toBeInTheDocument());
    expect(requests.filter((r) => r.method === 'POST').map((r) => new URL(r.url).pathname)).toEqual(['/api/videos/v1/alt-text/later']);
    expect(screen.getByRole('form', { name: 'Description of dunes.mp4' })).toBeInTheDocument();
    expect(screen.getByText('This video needs a description')).toBeInTheDocument();
  });

  it("shows the server's reason when saving fails, and keeps the text", async () => {
    mockApi({ 'PUT /api/videos/v1/alt-text': errorResponse(400, 'The description must be at most 500 characters') });
    wrap(<AltTextEditor timelineId="t1" mediaId="v1" kind="video" name="beach.mp4" initial="Waves" />);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The description must be at most 500 characters');
    expect(screen.getByRole('textbox', { name: 'Description of beach.mp4' })).toHaveValue('Waves');
  });
});

describe("the studio's list of what is missing", () => {
  it('counts, lists and quick-edits the items without alt text', async () => {
    let missing = [videoFixture({ id: 'i1', title: 'Kite', mediaType: 'image' }), videoFixture({ id: 'v2', title: 'Beach', altTextDeferred: true })];
    const { requests } = mockApi({
      'GET /api/timelines/t1/media/missing-alt-text': () => jsonResponse(200, { count: missing.length, items: missing }),
      'PUT /api/videos/i1/alt-text': () => {
        missing = missing.slice(1);
        return jsonResponse(200, videoFixture({ id: 'i1', title: 'Kite', mediaType: 'image', altText: 'A kite' }));
      },
    });
    wrap(<MissingAltText timelineId="t1" />);
    expect(await screen.findByText('2 items are missing alt text or a description')).toBeInTheDocument();
    const list = screen.getByRole('list', { name: 'Items missing alt text or a description' });
    expect(within(list).getByText('Marked for later')).toBeInTheDocument();
    fireEvent.click(within(list).getByRole('button', { name: 'Add alt text to Kite' }));
    await userEvent.type(await screen.findByRole('textbox', { name: 'Alt text for Kite' }), 'A kite');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('1 item is missing alt text or a description')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({ altText: 'A kite' });
    expect(within(screen.getByRole('list', { name: 'Items missing alt text or a description' })).getByRole('button', { name: 'Add description to Beach' })).toBeInTheDocument();
  });
});

describe('the check before publishing', () => {
  it('asks about the items still missing it, not those put off, and "Add later" puts one off', async () => {
    let missing = [videoFixture({ id: 'v1', title: 'Beach' }), videoFixture({ id: 'v2', title: 'Dunes', altTextDeferred: true })];
    const { requests } = mockApi({
      'GET /api/timelines/t1/media/missing-alt-text': () => jsonResponse(200, { count: missing.length, items: missing }),
      'POST /api/videos/v1/alt-text/later': () => {
        missing = missing.map((item) => (item.id === 'v1' ? { ...item, altTextDeferred: true } : item));
        return noContent();
      },
    });
    wrap(<PublishAltTextCheck timelineId="t1" />);
    expect(await screen.findByRole('heading', { name: '1 item has no alt text or description yet' })).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Description of Beach' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Description of Dunes' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Add later' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: /no alt text or description yet/ })).not.toBeInTheDocument());
    expect(requests.filter((r) => r.method === 'POST').map((r) => new URL(r.url).pathname)).toEqual(['/api/videos/v1/alt-text/later']);
  });
});

describe('the ALT badge of the player', () => {
  it('shows the text on screen and hides it again', () => {
    const host = document.createElement('div');
    document.body.append(host);
    const ref = createRef<HTMLElement>() as { current: HTMLElement | null };
    ref.current = host;
    render(<PlayerAltText text={'A red kite\nover the hill'} kind="image" panelHost={ref} />);
    const badge = screen.getByRole('button', { name: 'Show alt text' });
    expect(badge).toHaveTextContent('ALT');
    expect(badge).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(badge);
    const note = screen.getByRole('note', { name: 'Alt text' });
    expect(host).toContainElement(note);
    expect(note).toHaveTextContent('A red kite');
    expect(screen.getByRole('button', { name: 'Hide alt text' })).toHaveAttribute('aria-expanded', 'true');
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Show alt text' })).toHaveFocus();
    fireEvent.click(screen.getByRole('button', { name: 'Show alt text' }));
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
    host.remove();
  });

  it('is absent without text', () => {
    const ref = { current: document.body };
    render(<PlayerAltText text={null} kind="video" panelHost={ref} />);
    expect(screen.queryByRole('button', { name: /alt text/ })).not.toBeInTheDocument();
  });
});
