/** The longest song name a file is named after (whole characters; the rest of the name is short). */
const SONG_NAME_MAX = 100;
/** Names Windows keeps for devices, whatever the extension. */
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/**
 * A song's name made safe for file systems (Windows, macOS, Linux) and zip entries: no path separators, no
 * characters Windows refuses (`<>:"/\|?*`), no control characters, no leading or trailing dots and spaces,
 * not a device name, at most SONG_NAME_MAX characters. Letters of any script stay; an empty result is "Untitled".
 */
export function safeSongName(name: string): string {
  let safe = name
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[. ]+|[. ]+$/g, '');
  safe = Array.from(safe).slice(0, SONG_NAME_MAX).join('').replace(/[. ]+$/g, '');
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
