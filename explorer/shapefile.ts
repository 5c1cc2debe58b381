// The shapefile filter: dropped (or chosen) parts go to list_RES_NAMES and list_STA_NAMES as the documented multipart
// fields; the names they answer are highlighted, and a 422 shows the server's detail.
import { ApiError, apiFetch } from './api.js';

const parts = ['shp', 'dbf', 'prj', 'shx'] as const;

/** The names inside the polygons, or a message to show (local or the server's detail). */
export type FilterResult = { reservoirs: string[]; stations: string[]; files: string } | { error: string };

/** Sends the files (by extension; a zip goes as the .shp so the server can say what is wrong with it). */
export async function filterByShapefile(files: readonly File[]): Promise<FilterResult> {
  const form = new FormData();
  const used: string[] = [];
  for (const file of files) {
    const ext = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase();
    const part = ext === 'zip' ? 'shp' : parts.find((p) => p === ext);
    if (!part) continue;
    form.set(`shapefile_${part}`, file, file.name);
    used.push(file.name);
  }
  if (used.length === 0) return { error: `no .shp, .dbf, .prj or .shx among ${files.map((f) => f.name).join(', ') || 'the files'}` };
  try {
    const [reservoirs, stations] = await Promise.all([
      apiFetch('/info/list_RES_NAMES', { method: 'POST', body: form }).then((r) => r.json() as Promise<{ RES_NAMES: string[] }>),
      apiFetch('/info/list_STA_NAMES', { method: 'POST', body: form }).then((r) => r.json() as Promise<{ STA_NAMES: string[] }>),
    ]);
    return { reservoirs: reservoirs.RES_NAMES, stations: stations.STA_NAMES, files: used.join(', ') };
  } catch (error) {
    return { error: error instanceof ApiError ? `${error.status}: ${error.detail}` : String(error) };
  }
}

/** Wires drag-and-drop on `target` and the file input; `apply` gets the files. */
export function setupDrop(target: HTMLElement, hint: HTMLElement, input: HTMLInputElement, button: HTMLElement, apply: (files: File[]) => void): void {
  let depth = 0;
  target.addEventListener('dragenter', (e) => {
    e.preventDefault();
    depth++;
    hint.hidden = false;
  });
  target.addEventListener('dragover', (e) => e.preventDefault());
  target.addEventListener('dragleave', () => {
    if (--depth <= 0) hint.hidden = true;
  });
  target.addEventListener('drop', (e) => {
    e.preventDefault();
    depth = 0;
    hint.hidden = true;
    apply([...(e.dataTransfer?.files ?? [])]);
  });
  button.addEventListener('click', () => input.click());
  input.addEventListener('change', () => {
    apply([...(input.files ?? [])]);
    input.value = '';
  });
}
