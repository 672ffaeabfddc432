/**
 * The most UTF-8 bytes of a song's name a file is named after: file systems limit a name to 255 bytes (not
 * characters — a CJK character takes 3, an emoji 4), and the rest of a download's name (` - full mix
 * (mastered and enhanced).zip`) must still fit.
 */
export const SONG_NAME_MAX_BYTES = 150;
/** Names Windows keeps for devices, whatever the extension. */
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The longest start of `text` of at most `maxBytes` UTF-8 bytes that ends between two whole characters (graphemes). */
function utf8Prefix(text: string, maxBytes: number): string {
  let bytes = 0;
  let kept = '';
  for (const { segment } of graphemes.segment(text)) {
    bytes += Buffer.byteLength(segment, 'utf8');
    if (bytes > maxBytes) break;
    kept += segment;
  }
  return kept;
}

/**
 * A song's name made safe for file systems (Windows, macOS, Linux) and zip entries: no path separators, no
 * characters Windows refuses (`<>:"/\|?*`), no control characters, no invisible format characters (bidi
 * overrides such as U+202E and zero-width characters, which could make `evil\u202Egpj.exe` look like a .jpg), no
 * leading or trailing dots and spaces, not a device name, at most SONG_NAME_MAX_BYTES UTF-8 bytes, cut between
 * whole characters. Letters of any script stay; an empty result is "Untitled".
 */
export function safeSongName(name: string): string {
  let safe = name
    .normalize('NFC')
    .replace(/\p{Cf}/gu, '')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[. ]+|[. ]+$/g, '');
  safe = utf8Prefix(safe, SONG_NAME_MAX_BYTES).replace(/[. ]+$/g, '');
  if (!safe) return 'Untitled';
  return RESERVED.test(safe) ? `${safe}_` : safe;
}

/** Which result a file holds, said in its name: raw nothing, a master "(mastered)", an enhanced version "(enhanced)". */
export type VariantName = 'raw' | 'mastered' | 'enhanced';
const SUFFIX: Record<VariantName, string> = { raw: '', mastered: ' (mastered)', enhanced: ' (enhanced)' };

/** `<song> - vocals.wav`, `<song> - full mix (mastered).flac`, … */
export const audioFileName = (song: string, part: string, variant: VariantName, extension: string): string => `${song} - ${part}${SUFFIX[variant]}.${extension}`;

/** `<song> - stems.zip`, `<song> - selected stems (enhanced).zip`, `<song> - full mix (mastered and enhanced).zip`. */
export function zipFileName(song: string, what: string, variants: readonly VariantName[]): string {
  const named = variants.filter((variant) => variant !== 'raw');
  return `${song} - ${what}${named.length > 0 ? ` (${named.join(' and ')})` : ''}.zip`;
}
