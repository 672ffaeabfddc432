import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { loadEvalSet, type EvalTrack } from './load';
import { DEFAULT_EVAL_SET_DIR, DEFAULT_HELDOUT_SET_DIR, defaultHeldoutSetDir, INDEX_FILE, type EvalSetIndex } from './meta';

/**
 * Which evaluation sets a benchmark scores: the development set (tuning allowed), the held-out sets
 * (reported only), some of them — or one set at a given directory.
 */
export type SetName = 'dev' | 'heldout' | 'heldout2' | 'heldout3' | 'heldout4';

export interface SetRequest {
  /** 'dev', 'heldout', or for --dir the directory's own name. */
  name: string;
  label: string;
  dir: string;
  /** How to generate it when it is missing. */
  generate: string;
}

export interface LoadedSet extends SetRequest {
  tracks: EvalTrack[];
}

const KNOWN: Record<SetName, Omit<SetRequest, 'name'>> = {
  dev: { label: 'development', dir: DEFAULT_EVAL_SET_DIR, generate: 'npm run bench:eval-set' },
  heldout: { label: 'held-out', dir: DEFAULT_HELDOUT_SET_DIR, generate: 'npm run bench:eval-set -- --set heldout' },
  // A second held-out set from the same sources, drawn from seed 2: reported after each change, never tuned on.
  heldout2: { label: 'held-out-2', dir: defaultHeldoutSetDir(2), generate: 'npm run bench:eval-set -- --set heldout --seed 2' },
  // A third, drawn from seed 3 before the harmony cue of the tempo's level choice was chosen, and scored after.
  heldout3: { label: 'held-out-3', dir: defaultHeldoutSetDir(3), generate: 'npm run bench:eval-set -- --set heldout --seed 3' },
  // A fourth, drawn from seed 4 after every analysis choice so far (25 Nov) and scored once, nothing changed after.
  heldout4: { label: 'held-out-4', dir: defaultHeldoutSetDir(4), generate: 'npm run bench:eval-set -- --set heldout --seed 4' },
};

export const SET_OPTIONS_HELP = '--set dev|heldout|heldout2|heldout3|heldout4|both|all (default both: dev and heldout; all adds heldout2, heldout3 and heldout4) or --dir PATH (one set)';

/**
 * Takes `--set …` (SET_OPTIONS_HELP) and `--dir PATH` out of `argv` (the rest is returned for the
 * benchmark's own options). `--dir` scores just that directory, named after what its index says it is.
 */
export function parseSetArgs(argv: string[], defaultSet: 'both' | 'all' = 'both'): { sets: SetRequest[]; rest: string[] } {
  let setArg: string = defaultSet;
  let dir: string | undefined;
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--set') setArg = valueOf(argv, ++i, '--set');
    else if (argv[i] === '--dir') dir = path.resolve(valueOf(argv, ++i, '--dir'));
    else rest.push(argv[i]);
  }
  if (dir) return { sets: [requestForDir(dir)], rest };
  if (setArg === 'both') return { sets: (['dev', 'heldout'] as const).map((name) => ({ name, ...KNOWN[name] })), rest };
  if (setArg === 'all') return { sets: (['dev', 'heldout', 'heldout2', 'heldout3', 'heldout4'] as const).map((name) => ({ name, ...KNOWN[name] })), rest };
  if (Object.hasOwn(KNOWN, setArg)) return { sets: [{ name: setArg, ...KNOWN[setArg as SetName] }], rest };
  throw new Error(`--set must be dev, heldout, heldout2, heldout3, heldout4, both or all, got ${setArg}`);
}

/** Loads each requested set; a missing one is reported with the command that makes it, and skipped. */
export function loadSets(requests: SetRequest[]): LoadedSet[] {
  const loaded: LoadedSet[] = [];
  for (const request of requests) {
    if (!existsSync(path.join(request.dir, INDEX_FILE))) {
      console.log(`no ${request.label} set at ${request.dir} — generate it with \`${request.generate}\`; skipping it`);
      continue;
    }
    loaded.push({ ...request, tracks: loadEvalSet(request.dir) });
  }
  return loaded;
}

/** The development and held-out sets among `sets`, when both were scored (for the gap line). */
export function devAndHeldout<T extends { name: string }>(sets: T[]): { dev: T; heldout: T } | null {
  const dev = sets.find((s) => s.name === 'dev');
  const heldout = sets.find((s) => s.name === 'heldout');
  return dev && heldout ? { dev, heldout } : null;
}

function requestForDir(dir: string): SetRequest {
  let index: EvalSetIndex | undefined;
  try {
    index = JSON.parse(readFileSync(path.join(dir, INDEX_FILE), 'utf8')) as EvalSetIndex;
  } catch {
    // Reported by loadSets.
  }
  const heldoutName = index?.seed === undefined ? 'heldout' : index.seed === 2 ? 'heldout2' : path.basename(dir);
  const name: string = index?.set === 'full' ? 'dev' : index?.set === 'heldout' ? heldoutName : path.basename(dir);
  const known = name === 'dev' || name === 'heldout' || name === 'heldout2' ? KNOWN[name] : undefined;
  return { name, label: known?.label ?? name, dir, generate: known?.generate ?? `npm run bench:eval-set -- --set dev|heldout --out ${dir}` };
}

function valueOf(argv: string[], i: number, flag: string): string {
  const value = argv[i];
  if (value === undefined || value.startsWith('--')) throw new Error(`${flag} needs a value`);
  return value;
}
