import { createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
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
  // yazl reports a file it cannot stat or read as 'error' on the ZipFile itself, not on its output stream:
  // unheard, that event would crash the service. It fails the zip instead, and ends the output (so the
  // pipeline closes the file being written rather than waiting for bytes that never come).
  const failed = new Promise<never>((_, reject) =>
    zip.once('error', (error: Error) => {
      reject(error);
      (zip.outputStream as Readable).destroy(error);
    }),
  );
  for (const entry of entries) zip.addFile(entry.path, entry.name, { compressionLevel: 0, mtime });
  zip.end();
  const written = pipeline(zip.outputStream, createWriteStream(outPath));
  try {
    await Promise.race([written, failed]);
  } finally {
    // Settled either way before returning: the write stream is closed before its folder may be removed.
    await written.catch(() => undefined);
  }
}
