// Where the page's numbers come from: a banner when the server's data are synthetic, and a footer with the data's
// provenance and citation (GET /info/about, when the server lists it).
import { getJson } from './api.js';

interface About {
  data: string;
  title: string;
  source: string;
  retrieved?: string;
  model?: string;
  licence: string;
  citation: string;
  status?: string;
  dayTimeZone: string;
}

/** Fills the banner and the footer from /info/about; a server without that path (the public service) leaves both hidden. */
export async function showAbout(paths: readonly string[], banner: HTMLElement, footer: HTMLElement): Promise<void> {
  if (!paths.includes('/info/about')) return;
  const about = await getJson<About>('/info/about');
  if (about.data === 'synthetic') {
    banner.textContent = 'Synthetic data: real reservoir and station names, values made by a model. These are not OperEvap estimates of any reservoir.';
    banner.hidden = false;
  }
  const line = (label: string, text: string | undefined) => {
    if (!text) return;
    const p = document.createElement('p');
    const b = document.createElement('b');
    b.textContent = `${label}: `;
    p.append(b, text);
    footer.append(p);
  };
  line('Data', `${about.title} (${about.data})`);
  line('Source', about.source + (about.retrieved ? `, retrieved ${about.retrieved}` : ''));
  line('Model', about.model);
  line('Status', about.status);
  line('Days', about.dayTimeZone);
  line('Licence', about.licence);
  line('Cite as', about.citation);
  footer.hidden = false;
}
