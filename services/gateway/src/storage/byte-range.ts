import parseRange = require('range-parser');

export type ByteRange = { start: number; end: number };

/**
 * Parses a `Range` header against an object size (RFC 9110 §14) with range-parser, the parser express
 * itself uses. Only one range of bytes is served: undefined → serve the whole object (no header, another
 * unit, several ranges, or a malformed or invalid one); 'unsatisfiable' → 416.
 */
export function parseByteRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  const spec = header?.trim();
  if (!spec?.startsWith('bytes=') || spec.includes(',')) return undefined;
  const ranges = parseRange(size, spec);
  if (ranges === -2) return undefined;
  if (ranges === -1) return unservedRange(spec, size);
  return { start: ranges[0].start, end: ranges[0].end };
}

/**
 * range-parser answers "unsatisfiable" for every range it drops, including two that RFC 9110 reads
 * otherwise: a last position before the first makes the range invalid (the header is ignored), and a
 * suffix longer than the object selects all of it.
 */
function unservedRange(spec: string, size: number): ByteRange | 'unsatisfiable' | undefined {
  const [first = '', last = ''] = spec.slice('bytes='.length).split('-').map((position) => position.trim());
  if (first === '') return Number(last) > 0 && size > 0 ? { start: 0, end: size - 1 } : 'unsatisfiable';
  if (last !== '' && Number(last) < Number(first)) return undefined;
  return 'unsatisfiable';
}
