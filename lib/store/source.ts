// Where a store's bytes come from: one small interface, so local files and object storage serve the same reads.

/** Positional reads of the store's files: `read` answers fewer bytes than asked only past the end of a file. */
export interface ByteSource {
  read(path: string, offset: number, length: number): Promise<Uint8Array>;
  close?(): Promise<void>; // gives back what the source holds open
}

/** What a source has served, for operators and tests. */
export interface ReadCounts {
  reads: number;
  bytesRead: number;
}
