// Every answer says where its numbers come from: a synthetic store's answers carry `X-Evap-Data: synthetic`, every
// answer a `Link` to GET /info/about, which gives the store's provenance and citation.
import type { EvapStore } from '../lib/open/store.js';
import { aboutEntries, type StoreAbout } from '../lib/store/about.js';
import { listResponse, type OutputFormat } from './answers.js';

/** The Link header every answer carries (RFC 8288): the store's provenance describes it, so a saved CSV or JSON
 * answer's headers say where to read whether its numbers are synthetic and how to cite them. */
export function provenanceLink(basePath: string): string {
  return `<${basePath}/info/about>; rel="describedby"; type="application/json"`;
}

/** GET /info/about: the provenance as one JSON object, or as CSV rows of `field,value`. */
export function aboutResponse(format: OutputFormat, about: StoreAbout): Response {
  const rows = aboutEntries(about).map(([field, value]) => ({ field, value }));
  return listResponse(format, about, rows, ['field', 'value']);
}

/** The line /docs and /openapi.json show first when the store is synthetic. */
export const SYNTHETIC_DOCS_NOTE =
  'This server answers from a SYNTHETIC store: real reservoir and station names, values made by a model, not OperEvap data (every answer carries X-Evap-Data: synthetic; see GET /info/about).';

/** The OpenAPI document with the synthetic note first in its description when the store is synthetic. */
export function withDataNote(openapi: object, store: EvapStore): object {
  if (!store.synthetic) return openapi;
  const { info } = openapi as { info: { description: string } };
  return { ...openapi, info: { ...info, description: `**${SYNTHETIC_DOCS_NOTE}**\n\n${info.description}` } };
}
