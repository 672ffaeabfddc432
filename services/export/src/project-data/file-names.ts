/** A song's name as safe inside a file name on every desktop system: no path separators, reserved or control characters. */
export function fileSafeName(name: string): string {
  const safe = name
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '')
    .replace(/[. ]+$/, '')
    .slice(0, 100)
    .trim();
  return safe || 'song';
}
