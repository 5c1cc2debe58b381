// Changing what a store says of itself (title, description, source, citation, licence, day time zone) without touching
// its data: a new snapshot with the same files and the new provenance, so every answer from then on carries it.
import { InvalidParameterError } from '../errors.js';
import { type StoreAbout, unknownAbout } from '../store/about.js';
import { openStorage } from '../store/location.js';
import type { Manifest } from '../store/manifest.js';
import { openReadback } from '../store/readback.js';
import type { Storage } from '../store/storage.js';
import { createStoreWriter } from './write.js';

/** The fields of the provenance a store's keeper may set (the kind of data and the retrieval time stay the makers'). */
const settableAboutFields = ['title', 'description', 'source', 'citation', 'licence', 'dayTimeZone', 'model', 'status'] as const;
export type SettableAbout = Partial<Record<(typeof settableAboutFields)[number], string>>;

/** Publishes a snapshot of the store at `location` with these provenance fields changed (an empty text is refused). */
export async function setStoreAbout(location: string | Storage, changes: SettableAbout): Promise<Manifest> {
  for (const [field, value] of Object.entries(changes)) {
    if (!(settableAboutFields as readonly string[]).includes(field))
      throw new InvalidParameterError(field, `${field} is not a field of the provenance one may set`);
    if (value !== undefined && value.trim() === '') throw new InvalidParameterError(field, `${field} must not be empty`);
  }
  const storage = openStorage(location);
  const base = await openReadback(storage);
  if (!base) throw new InvalidParameterError('store', `${storage.location} holds no store`);
  try {
    const writer = createStoreWriter(storage, { base: base.manifest });
    const kept = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    writer.setAbout({ ...(base.manifest.about ?? unknownAbout), ...kept } as StoreAbout);
    return await writer.commit();
  } finally {
    await base.close();
  }
}
