// Requests to the documented API with the api-key header; the key is asked once and kept for the tab (sessionStorage).

const keyName = 'evap-api-key';

/**
 * The path of the database this page asks: '' at the root (the server's first database), `/twdb` when the page was
 * opened at /twdb/ on a server serving several (GET /databases). Every request of the page goes under it.
 */
export const databasePrefix = typeof location === 'undefined' ? '' : location.pathname.replace(/\/+$/, '');

/** A non-2xx answer, with the server's `detail` as readable text. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly url: string,
  ) {
    super(`${status}: ${detail}`);
    this.name = 'ApiError';
  }
}

/** FastAPI's detail (a string, or a list of {loc, msg}) as one line. */
export function detailText(body: unknown): string {
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    return detail.map((d: { loc?: unknown[]; msg?: string }) => `${(d.loc ?? []).join('.')}: ${d.msg ?? ''}`).join('; ');
  }
  return JSON.stringify(body);
}

let asking: Promise<string> | undefined;

// the dialog resolves with the key typed; a refused key brings it back with the server's reason
function askKey(message?: string): Promise<string> {
  return (asking ??= new Promise<string>((resolve) => {
    const dialog = document.getElementById('key-dialog') as HTMLDialogElement;
    const input = document.getElementById('key-input') as HTMLInputElement;
    const text = document.getElementById('key-message')!;
    if (message) {
      text.textContent = message;
      text.classList.add('error');
    }
    input.value = '';
    const form = document.getElementById('key-form') as HTMLFormElement;
    form.onsubmit = (event) => {
      event.preventDefault();
      const key = input.value.trim();
      if (!key) return;
      sessionStorage.setItem(keyName, key);
      dialog.close();
      asking = undefined;
      resolve(key);
    };
    dialog.oncancel = (event) => event.preventDefault(); // nothing works without a key
    if (!dialog.open) dialog.showModal();
    input.focus();
  }));
}

/** The key of this tab, asking for it if there is none yet. */
export function currentKey(): Promise<string> {
  const key = sessionStorage.getItem(keyName);
  return key ? Promise.resolve(key) : askKey();
}

/** Forgets the key and asks for another (the header's "API key" button). */
export function changeKey(): Promise<string> {
  sessionStorage.removeItem(keyName);
  return askKey();
}

/** A request with the key (to the page's database, or the server's root with `atRoot`); a 401 asks for the key again and retries; any other failure is an ApiError. */
export async function apiFetch(url: string, init: RequestInit = {}, atRoot = false): Promise<Response> {
  const target = atRoot || !url.startsWith('/') ? url : `${databasePrefix}${url}`;
  for (;;) {
    const key = await currentKey();
    const response = await fetch(target, { ...init, headers: { ...(init.headers as Record<string, string>), 'api-key': key } });
    if (response.ok) return response;
    const body: unknown = await response.json().catch(() => ({ detail: response.statusText }));
    if (response.status !== 401) throw new ApiError(response.status, detailText(body), url);
    if (sessionStorage.getItem(keyName) === key) sessionStorage.removeItem(keyName);
    if (!sessionStorage.getItem(keyName)) await askKey(`The server refused this key (${detailText(body)}). Enter it again.`);
  }
}

/** GET a JSON answer. */
export async function getJson<T>(url: string): Promise<T> {
  return (await apiFetch(url)).json() as Promise<T>;
}

/** A path with query parameters, as the page requests and shows it (commas left readable, as the API documents lists). */
export function apiUrl(path: string, params: Record<string, string | undefined>): string {
  const query = Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '')
    .map(([k, v]) => `${k}=${encodeURIComponent(v).replace(/%2C/g, ',')}`)
    .join('&');
  return query ? `${path}?${query}` : path;
}
