// Byte-level checks and readers of the .shp, .shx and .dbf parts (ESRI Shapefile Technical Description, July 1998).
import { InvalidParameterError } from '../errors.js';

/** The wire names of the parts, keyed by extension. */
const partNames = {
  shp: 'shapefile_shp',
  dbf: 'shapefile_dbf',
  prj: 'shapefile_prj',
  shx: 'shapefile_shx',
} as const;

type PartName = keyof typeof partNames;

/** One shape record of a polygon .shp: its rings in the file's own coordinates. */
interface ShpRecord {
  offset: number; // byte offset of the record header, as the .shx indexes it
  length: number; // content length in bytes, without the 8-byte record header
  rings: Float64Array[]; // each ring flat: x0, y0, x1, y1, ... (an array per vertex cost 3M arrays for a 50 MiB .shp)
}

const polygonTypes: Record<number, string> = { 5: 'Polygon', 15: 'PolygonZ', 25: 'PolygonM' };
const otherTypes: Record<number, string> = {
  0: 'Null',
  1: 'Point',
  3: 'PolyLine',
  8: 'MultiPoint',
  11: 'PointZ',
  13: 'PolyLineZ',
  18: 'MultiPointZ',
  21: 'PointM',
  23: 'PolyLineM',
  28: 'MultiPointM',
  31: 'MultiPatch',
};

/** An InvalidParameterError naming the part, e.g. `shapefile_shp: .shp is empty`. */
export function partError(part: PartName, problem: string): InvalidParameterError {
  return new InvalidParameterError(partNames[part], `${partNames[part]}: .${part} ${problem}`, 'malformed');
}

/** A DataView over the part's bytes, rejecting an empty file or a zip archive. */
export function viewPart(part: PartName, bytes: Uint8Array | ArrayBuffer): DataView {
  const view = ArrayBuffer.isView(bytes) ? new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength) : new DataView(bytes);
  if (view.byteLength === 0) throw partError(part, 'is an empty file');
  if (view.byteLength >= 4 && view.getUint32(0) === 0x504b0304) {
    throw partError(part, 'is a zip archive: send the four parts (.shp, .shx, .dbf, .prj), not a zip');
  }
  return view;
}

// The 100-byte main file header shared by .shp and .shx; returns the shape type.
function checkHeader(part: 'shp' | 'shx', view: DataView): number {
  if (view.byteLength < 100) throw partError(part, `is truncated: ${view.byteLength} bytes, shorter than the 100-byte header`);
  const code = view.getInt32(0);
  if (code !== 9994) throw partError(part, `is not a shapefile: file code ${code}, expected 9994`);
  const version = view.getInt32(28, true);
  if (version !== 1000) throw partError(part, `has unsupported version ${version}, expected 1000`);
  const declared = view.getInt32(24) * 2; // file length is in 16-bit words
  if (declared !== view.byteLength) {
    const problem = declared > view.byteLength ? 'is truncated' : 'has trailing bytes';
    throw partError(part, `${problem}: the header declares ${declared} bytes, received ${view.byteLength}`);
  }
  return view.getInt32(32, true);
}

/** Reads every record of a polygon .shp, after checking the header and that each record fits its declared length. */
export function readShp(view: DataView): ShpRecord[] {
  const type = checkHeader('shp', view);
  if (!(type in polygonTypes)) {
    const name = otherTypes[type] ?? 'unknown';
    throw partError('shp', `has shape type ${name} (${type}): only polygon shapefiles (types 5, 15, 25) are accepted`);
  }
  const records: ShpRecord[] = [];
  let offset = 100;
  while (offset < view.byteLength) {
    const n = records.length + 1;
    if (offset + 8 > view.byteLength) throw partError('shp', `is truncated in the header of record ${n}`);
    const length = view.getInt32(offset + 4) * 2;
    const start = offset + 8;
    if (length < 4 || start + length > view.byteLength) {
      throw partError('shp', `is malformed: record ${n} declares ${length} bytes, ${view.byteLength - start} remain`);
    }
    records.push({ offset, length, rings: readRings(view, start, length, type, n) });
    offset = start + length;
  }
  return records;
}

// The rings of one record's content; a Null record has none.
function readRings(view: DataView, start: number, length: number, type: number, n: number): Float64Array[] {
  const recordType = view.getInt32(start, true);
  if (recordType === 0) return [];
  if (recordType !== type) throw partError('shp', `is malformed: record ${n} has shape type ${recordType}, the file ${type}`);
  const bad = (problem: string) => partError('shp', `is malformed: record ${n} ${problem}`);
  if (length < 44) throw bad(`is ${length} bytes, shorter than a polygon header`);
  const numParts = view.getInt32(start + 36, true);
  const numPoints = view.getInt32(start + 40, true);
  const points = start + 44 + 4 * numParts;
  if (numParts < 0 || numPoints < 0 || points + 16 * numPoints > start + length) {
    throw bad(`declares ${numParts} parts and ${numPoints} points, more than its ${length} bytes hold`);
  }
  const rings: Float64Array[] = [];
  for (let p = 0; p < numParts; p++) {
    const first = view.getInt32(start + 44 + 4 * p, true);
    const end = p + 1 < numParts ? view.getInt32(start + 48 + 4 * p, true) : numPoints;
    if (first < 0 || end < first || end > numPoints) throw bad(`has part ${p} over points ${first}..${end} of ${numPoints}`);
    if (end - first < 3) continue; // fewer than 3 points bound no area
    const ring = new Float64Array(2 * (end - first));
    for (let i = first; i < end; i++) {
      const x = view.getFloat64(points + 16 * i, true);
      const y = view.getFloat64(points + 16 * i + 8, true);
      if (!Number.isFinite(x) || !Number.isFinite(y)) throw bad(`has a non-finite coordinate (${x}, ${y})`);
      ring[2 * (i - first)] = x;
      ring[2 * (i - first) + 1] = y;
    }
    rings.push(ring);
  }
  return rings;
}

/** Checks that the .shx indexes exactly the records of the .shp, at their offsets and lengths. */
export function checkShx(view: DataView, records: readonly ShpRecord[]): void {
  checkHeader('shx', view);
  const count = (view.byteLength - 100) / 8;
  if (count !== records.length) {
    throw partError('shx', `does not match the .shp: it indexes ${count} records, the .shp has ${records.length}`);
  }
  records.forEach((record, i) => {
    const offset = view.getInt32(100 + 8 * i) * 2;
    const length = view.getInt32(104 + 8 * i) * 2;
    if (offset !== record.offset || length !== record.length) {
      throw partError(
        'shx',
        `does not match the .shp: record ${i + 1} is at byte ${offset} (${length} bytes) in the .shx, ${record.offset} (${record.length} bytes) in the .shp`,
      );
    }
  });
}

/** Checks that the .dbf header is whole and declares one attribute row per shape record. */
export function checkDbf(view: DataView, shapes: number): void {
  if (view.byteLength < 33) throw partError('dbf', `is truncated: ${view.byteLength} bytes, shorter than a dBASE header`);
  const rows = view.getUint32(4, true);
  const headerLength = view.getUint16(8, true);
  const rowLength = view.getUint16(10, true);
  if (headerLength < 33 || rowLength < 1) {
    throw partError('dbf', `is not a dBASE file: header length ${headerLength}, row length ${rowLength}`);
  }
  if (headerLength + rows * rowLength > view.byteLength) {
    throw partError('dbf', `is truncated: ${rows} rows of ${rowLength} bytes need ${headerLength + rows * rowLength} bytes, received ${view.byteLength}`);
  }
  if (rows !== shapes) throw partError('dbf', `does not match the .shp: it has ${rows} rows, the .shp has ${shapes} shapes`);
}
