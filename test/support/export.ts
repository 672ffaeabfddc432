import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ObjectStorageAdapter } from '@stemdeck/platform';
import { CSRF } from './env';
import { fixturePath } from './media';
import type { SignedInAgent } from './sign-in';

const json = { ...CSRF, 'content-type': 'application/json' };

export interface ExportAnswer {
  id: string;
  filename: string;
  downloadUrl: string;
  expiresAt: string;
}

/** POST /api/export/audio or /api/export/project as the panels do; the answer comes once the file is stored. */
export const postExport = (agent: SignedInAgent, kind: 'audio' | 'project', body: unknown): Promise<Response> =>
  agent.fetch(`/api/export/${kind}`, { method: 'POST', headers: json, body: JSON.stringify(body) });

/** A downloaded export on disk (its own folder), with the answer's headers. */
export interface DownloadedExport {
  dir: string;
  path: string;
  bytes: Buffer;
  headers: Headers;
}

/** Downloads an export's file into a fresh folder under the fixtures (removed by `removeDownloads`). */
export async function downloadExport(agent: SignedInAgent, answer: ExportAnswer): Promise<DownloadedExport> {
  const response = await agent.fetch(answer.downloadUrl);
  if (response.status !== 200) throw new Error(`GET ${answer.downloadUrl} answered ${response.status}: ${await response.text()}`);
  const dir = fixturePath(join('exports', answer.id));
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'download');
  const bytes = Buffer.from(await response.arrayBuffer());
  writeFileSync(path, bytes);
  return { dir, path, bytes, headers: response.headers };
}

export const removeDownloads = (): void => rmSync(fixturePath('exports'), { recursive: true, force: true });

/** Info-ZIP reads UTF-8 entry names only in a UTF-8 locale (song names may hold accents). */
const UTF8 = { env: { ...process.env, LC_ALL: 'C.UTF-8' } };

/** A zip's entry names, in order, how each is stored, and each extracted under `dir/unzipped` (paths by entry name). */
export function unzip(zipPath: string, dir: string): { names: string[]; pathOf: (name: string) => string; methods: string[] } {
  const names = execFileSync('zipinfo', ['-1', zipPath], UTF8).toString('utf8').split('\n').filter(Boolean);
  const methods = execFileSync('unzip', ['-v', zipPath], UTF8)
    .toString('utf8')
    .split('\n')
    .map((line) => /^\s*\d+\s+(Stored|Defl:\w|\w+)\s+\d+\s+\S+%/.exec(line)?.[1])
    .filter((method): method is string => Boolean(method));
  const out = join(dir, 'unzipped');
  execFileSync('unzip', ['-q', '-o', zipPath, '-d', out], UTF8);
  return { names, methods, pathOf: (name) => join(out, name) };
}

/** The object storage the stack writes to, for proving what was (not) kept and for breaking a stored stem on purpose. */
export const exportStorage = new ObjectStorageAdapter({
  S3_ENDPOINT: process.env.S3_ENDPOINT ?? 'http://127.0.0.1:19000',
  S3_ACCESS_KEY: process.env.S3_ACCESS_KEY ?? 'stemdeck',
  S3_SECRET_KEY: process.env.S3_SECRET_KEY ?? 'stemdeck-dev-secret',
  S3_BUCKET: process.env.S3_BUCKET ?? 'stemdeck',
  S3_REGION: process.env.S3_REGION ?? 'us-east-1',
});

/** The export service's scratch folders (`export-<pid>-XXXXXX`) of one process. */
export function exportScratchOf(pid: number): string[] {
  const workDir = process.env.EXPORT_WORK_DIR ?? '/tmp/stemdeck-export';
  try {
    return readdirSync(workDir).filter((name) => name.startsWith(`export-${pid}-`));
  } catch {
    return [];
  }
}
