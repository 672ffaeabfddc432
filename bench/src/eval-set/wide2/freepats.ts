/**
 * A TiMidity++ configuration from Debian's freepats.cfg that names every program of bank 0 (a missing one
 * from the nearest freepats program of its General MIDI family of eight, else the nearest at all) and every
 * note of every drum set 0–127 (a missing one from the nearest drum note of freepats' one set).
 */
export function freepatsFullConfig(source: string): string {
  const melodic = new Map<number, string>();
  const drums = new Map<number, string>();
  let section: 'bank' | 'drums' | undefined;
  for (const line of source.split('\n')) {
    const head = /^\s*(bank|drumset)\s+(\d+)/.exec(line);
    if (head) {
      section = head[2] !== '0' ? undefined : head[1] === 'bank' ? 'bank' : 'drums';
      continue;
    }
    const entry = /^\s*(\d+)\s+(\S.*?)\s*$/.exec(line);
    if (entry && section) (section === 'bank' ? melodic : drums).set(Number(entry[1]), entry[2]);
  }
  if (melodic.size === 0 || drums.size === 0) throw new Error('freepats.cfg names no programs or drums');
  const nearest = (have: Map<number, string>, n: number, within?: (m: number) => boolean): string | undefined => {
    const candidates = [...have.keys()].filter((m) => within?.(m) ?? true);
    if (candidates.length === 0) return undefined;
    candidates.sort((a, b) => Math.abs(a - n) - Math.abs(b - n) || a - b);
    return have.get(candidates[0]);
  };
  const lines = ['# Written by the Stemdeck generator: freepats, every program and drum note named.', `dir ${readDir(source)}`, 'bank 0'];
  for (let p = 0; p < 128; p++) lines.push(`${p} ${nearest(melodic, p, (m) => m >> 3 === p >> 3) ?? nearest(melodic, p)}`);
  for (let kit = 0; kit < 128; kit++) {
    lines.push(`drumset ${kit}`);
    for (let note = 0; note < 128; note++) lines.push(`${note} ${nearest(drums, note)}`);
  }
  return lines.join('\n') + '\n';
}

function readDir(source: string): string {
  const dir = /^\s*dir\s+(\S+)/m.exec(source)?.[1];
  if (!dir) throw new Error('freepats.cfg names no patch directory');
  return dir;
}

