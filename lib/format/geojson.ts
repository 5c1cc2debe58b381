// Metadata records as GeoJSON (RFC 7946): a FeatureCollection of Points that QGIS and any web map open as they are.
import type { WireRecord } from '../types.js';

/** A GeoJSON Feature of a reservoir or station: a Point at [LON, LAT] (RFC 7946 section 3.1.1: longitude first). */
export interface PointFeature {
  type: 'Feature';
  id: string;
  geometry: { type: 'Point'; coordinates: [number, number] } | null; // null: no location held (RFC 7946 section 3.2)
  properties: WireRecord;
}

/** The records (each with its name under `nameKey` and numeric LAT and LON) as a FeatureCollection; every attribute is a property. */
export function recordsToGeoJson(records: readonly WireRecord[], nameKey: string): { type: 'FeatureCollection'; features: PointFeature[] } {
  const features = records.map((record): PointFeature => {
    const { LAT: lat, LON: lon } = record;
    const located = typeof lat === 'number' && typeof lon === 'number' && Number.isFinite(lat) && Number.isFinite(lon);
    return { type: 'Feature', id: String(record[nameKey]), geometry: located ? { type: 'Point', coordinates: [lon, lat] } : null, properties: { ...record } };
  });
  return { type: 'FeatureCollection', features };
}
