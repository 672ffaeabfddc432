/** A number as CSV text with at most `decimals` decimals and no trailing zeros (`0.5`, `12`, `0.0417`). */
export function csvNumber(value: number, decimals: number): string {
  const text = value.toFixed(decimals);
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/** A CSV cell: quoted when it holds a comma, a quote or a line break (RFC 4180). */
export function csvCell(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A header row and data rows as CSV text, one line per row, ending with a line break. */
export function csvText(header: readonly string[], rows: Iterable<readonly (string | number)[]>): string {
  const lines = [header.map(csvCell).join(',')];
  for (const row of rows) lines.push(row.map(csvCell).join(','));
  return `${lines.join('\n')}\n`;
}
