import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';

/** A file to put in a zip: its path on disk and its name inside the zip (may hold a folder: `touchdesigner/beats.csv`). */
export interface ZipEntry {
  path: string;
  name: string;
}

/**
 * Writes the files into one zip at `outPath`, stored (audio does not compress, and storing is what keeps
 * it fast), streamed from disk to disk: no file is held in memory. Zip64 where sizes need it (yazl decides).
 */
export async function zipFiles(entries: readonly ZipEntry[], outPath: string, mtime = new Date()): Promise<void> {
  const zip = new ZipFile();
  for (const entry of entries) zip.addFile(entry.path, entry.name, { compressionLevel: 0, mtime });
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(outPath));
}
