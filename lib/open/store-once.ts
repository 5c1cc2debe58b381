// One opened store per location for the life of the process, so a notebook cell run again reuses it instead of
// opening another (and its caches) each time.
import { type EvapStore, type OpenStoreOptions, openStore } from './store.js';

const opened = new Map<string, Promise<EvapStore>>();

/**
 * Opens a store (the demo store without a location) the first time, and returns that same store on every later call
 * with the same location; a failed open is not kept, so the next call tries again. Options apply to the first call.
 */
export function openStoreOnce(location?: string, options?: OpenStoreOptions): Promise<EvapStore> {
  const key = location ?? '';
  let store = opened.get(key);
  if (store === undefined) {
    store = openStore(location, options);
    opened.set(key, store);
    store.catch(() => opened.get(key) === store && opened.delete(key));
  }
  return store;
}
