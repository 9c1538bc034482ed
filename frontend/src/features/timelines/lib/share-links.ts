/** The shared link form {origin}/timeline/{id} (spec 001, section 2). */
export function timelineShareLink(origin: string, id: string): string {
  return `${origin}/timeline/${encodeURIComponent(id)}`;
}

/** The player's address, also used as a share link (spec 000, section 2). */
export function timelineWatchLink(origin: string, id: string): string {
  return `${origin}/watch/${encodeURIComponent(id)}`;
}

/** The embed snippet: an 800 x 600 iframe of {origin}/embed/timeline/{id} (spec 001, section 9). */
export function timelineEmbedCode(origin: string, id: string, title: string): string {
  const escapedTitle = title.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<iframe src="${origin}/embed/timeline/${encodeURIComponent(id)}" width="800" height="600" title="${escapedTitle}" frameborder="0" allowfullscreen></iframe>`;
}
