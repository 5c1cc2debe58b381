// The request a view made: its URL, "copy as" snippets, and CSV/JSON downloads of exactly that URL.
import { ApiError, apiFetch, databasePrefix } from './api.js';
import { type SnippetKind, snippet, snippetKinds } from './snippets.js';

let chosen: SnippetKind = 'curl';

const withFormat = (url: string, format: 'csv' | 'json') =>
  /[?&]output_format=/.test(url) ? url.replace(/([?&]output_format=)[^&]*/, `$1${format}`) : `${url}${url.includes('?') ? '&' : '?'}output_format=${format}`;

/** Fills `box` with the request `url` (path and query) of a view titled `what`. */
export function renderRequest(box: HTMLElement, what: string, url: string, filename: string): void {
  box.replaceChildren();
  box.hidden = false;
  const title = document.createElement('h3');
  title.textContent = `Request: ${what}`;
  const code = document.createElement('code');
  code.className = 'request-url';
  code.textContent = `GET ${databasePrefix}${url}`;

  const tools = document.createElement('div');
  tools.className = 'request-tools';
  const label = document.createElement('label');
  label.textContent = 'Copy as ';
  const select = document.createElement('select');
  select.className = 'snippet-kind';
  for (const { kind, label: text } of snippetKinds) select.append(new Option(text, kind, false, kind === chosen));
  label.append(select);
  const copy = document.createElement('button');
  copy.type = 'button';
  copy.textContent = 'Copy';
  const downloads = (['csv', 'json'] as const).map((format) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = `download-${format}`;
    button.textContent = `Download ${format.toUpperCase()}`;
    button.addEventListener('click', () => void download(withFormat(url, format), `${filename}.${format}`, status));
    return button;
  });
  tools.append(label, copy, ...downloads);

  const pre = document.createElement('pre');
  pre.className = 'snippet';
  const status = document.createElement('span');
  status.className = 'request-status';
  status.setAttribute('role', 'status');
  const show = () => (pre.textContent = snippet(chosen, location.origin + databasePrefix, url)); // the snippets name the database's path
  select.addEventListener('change', () => {
    chosen = select.value as SnippetKind;
    show();
  });
  copy.addEventListener('click', () => {
    navigator.clipboard.writeText(pre.textContent ?? '').then(
      () => (status.textContent = 'copied'),
      () => (status.textContent = 'select the text to copy it'),
    );
  });
  show();
  box.append(title, code, tools, status, pre);
}

// through the key-carrying fetch, then saved from a blob: a plain link cannot send the api-key header
async function download(url: string, filename: string, status: HTMLElement): Promise<void> {
  status.textContent = 'downloading…';
  try {
    const blob = await (await apiFetch(url)).blob();
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = filename;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    status.textContent = `${filename}: ${blob.size.toLocaleString('en-US')} bytes`;
  } catch (error) {
    status.textContent = error instanceof ApiError ? `download failed: ${error.detail}` : String(error);
  }
}
