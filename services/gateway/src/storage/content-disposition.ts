/** The characters RFC 5987's attr-char leaves as they are; everything else in `filename*` is percent-encoded UTF-8. */
const ATTR_CHAR = /[A-Za-z0-9!#$&+\-.^_`|~]/;

/** A plain-ASCII stand-in for a name (accents dropped, other letters `_`, no quotes or backslashes), for clients that ignore `filename*`. */
function asciiFallback(fileName: string): string {
  return fileName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\]/g, '_');
}

function encodeExtValue(fileName: string): string {
  return Array.from(Buffer.from(fileName.normalize('NFC'), 'utf8'))
    .map((byte) => {
      const char = String.fromCharCode(byte);
      return byte < 0x80 && ATTR_CHAR.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
}

/**
 * A Content-Disposition header (RFC 6266): `inline` (played in the page) or `attachment` (saved), with the
 * name as a quoted ASCII `filename` and, when the name is not plain ASCII, as `filename*` (RFC 5987,
 * UTF-8), which browsers prefer — so a song called "Déjà vu" downloads as "Déjà vu - full mix.wav".
 */
export function contentDisposition(type: 'inline' | 'attachment', fileName: string): string {
  const clean = fileName.replace(/[\r\n]/g, ' ');
  const fallback = asciiFallback(clean);
  const header = `${type}; filename="${fallback}"`;
  return fallback === clean ? header : `${header}; filename*=UTF-8''${encodeExtValue(clean)}`;
}
