import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { chromiumPerTest, signInThroughKeycloak } from '../support/browser';
import { CSRF } from '../support/env';
import { decode, ffprobe, rmsDbfs } from '../support/export-audio';
import { makeClip, uploadSeparated, type SeparatedStem } from '../support/media';
import { signIn } from '../support/sign-in';

jest.setTimeout(240_000);

const ROOT = resolve(__dirname, '..', '..');
const json = { ...CSRF, 'content-type': 'application/json' };
/** How far the rendered mix may be from the exported one, relative to the export's level. */
const MATCH_BOUND_DB = -60;

/**
 * The studio's own playback graph (frontend/src/audio/mixGraph.ts, the MixGraph the mixer plays through) bundled for
 * the page: `renderStudioMix` decodes the stems the page fetches as the studio does, lets MixGraph set their gains from
 * their volume, mute and solo, starts them as the transport does and renders the master in an OfflineAudioContext.
 * The channels come back as base64 float32.
 */
const ENTRY = `
import { MixGraph } from './mixGraph';
import type { PlayerStem } from './stemPlayback';

const toBase64 = (samples: Float32Array): string => {
  const bytes = new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength);
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
};

(window as unknown as Record<string, unknown>).renderStudioMix = async (stems: PlayerStem[], sampleRate: number, seconds: number) => {
  const context = new OfflineAudioContext(2, Math.ceil(seconds * sampleRate), sampleRate);
  const buffers = await Promise.all(
    stems.map(async (stem) => context.decodeAudioData(await (await fetch(stem.url, { credentials: 'same-origin' })).arrayBuffer())),
  );
  const graph = new MixGraph();
  graph.swap(stems, buffers, context as unknown as AudioContext);
  const when = graph.startSources(0);
  const rendered = await context.startRendering();
  return { when, left: toBase64(rendered.getChannelData(0)), right: toBase64(rendered.getChannelData(1)) };
};
`;

async function studioMixBundle(): Promise<string> {
  const result = await build({
    stdin: { contents: ENTRY, resolveDir: join(ROOT, 'frontend', 'src', 'audio'), sourcefile: 'render-studio-mix.ts', loader: 'ts' },
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'chrome110',
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

const fromBase64 = (text: string): Float32Array => {
  const bytes = Buffer.from(text, 'base64');
  const samples = new Float32Array(bytes.length / 4);
  new Uint8Array(samples.buffer).set(bytes);
  return samples;
};

/**
 * The rendered master against the export, the render read from `offset` frames on (the graph starts its sources a
 * little ahead); the best offset within a few frames of the start time. RMS of the difference relative to the
 * export's RMS, dB.
 */
function relativeDifference(exported: { left: Float32Array; right: Float32Array }, rendered: { left: Float32Array; right: Float32Array }, start: number) {
  let best = { offset: start, db: Infinity };
  for (let offset = Math.max(0, start - 3); offset <= start + 3; offset++) {
    const frames = Math.min(exported.left.length, rendered.left.length - offset);
    let difference = 0;
    let level = 0;
    for (const [a, b] of [
      [exported.left, rendered.left],
      [exported.right, rendered.right],
    ] as const) {
      for (let i = 0; i < frames; i++) {
        const d = a[i] - b[i + offset];
        difference += d * d;
        level += a[i] * a[i];
      }
    }
    const db = 10 * Math.log10(difference / level);
    if (db < best.db) best = { offset, db };
  }
  return best;
}

describe('the exported mix is the mix the studio plays', () => {
  const chromium = chromiumPerTest();
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'export-mix-render-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a full-mix flac with −6 dB on the vocals and the bass muted matches an OfflineAudioContext render of the studio’s MixGraph within −60 dB', async () => {
    const agent = await signIn('demo', 'demo');
    const { projectId, stems } = await uploadSeparated(agent, makeClip('export-mix-render-10s.wav', 10));
    const byType = (type: string) => stems.find((stem) => stem.type === type)!;
    for (const [type, change] of [
      ['vocals', { volume: -6 }],
      ['bass', { muted: true }],
    ] as const) {
      const answer = await agent.fetch(`/api/stems/${byType(type).id}`, { method: 'PUT', headers: json, body: JSON.stringify(change) });
      expect(answer.status).toBe(200);
    }
    const mixed = (await (await agent.fetch(`/api/projects/${projectId}/stems`)).json()) as SeparatedStem[];
    expect(mixed.find((stem) => stem.type === 'vocals')).toMatchObject({ volume: -6, muted: false });
    expect(mixed.find((stem) => stem.type === 'bass')).toMatchObject({ muted: true });

    const exported = await agent.fetch('/api/export/audio', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ projectId, exportType: 'full-mix', format: 'flac', mastering: 'raw' }),
    });
    expect(exported.status).toBe(200);
    const { downloadUrl } = (await exported.json()) as { downloadUrl: string };
    const download = await agent.fetch(downloadUrl);
    expect(download.status).toBe(200);
    const flac = join(dir, 'mix.flac');
    writeFileSync(flac, Buffer.from(await download.arrayBuffer()));
    const probe = ffprobe(flac);
    expect(probe).toMatchObject({ codec: 'flac', bitsPerRawSample: 24, channels: 2 });
    const exportedMix = await decode(flac);
    expect(rmsDbfs(exportedMix)).toBeGreaterThan(-50);

    // The studio's graph in the same owner's browser, on the stems as the mixer has them now (and, to show the
    // comparison can fail, as they were before the changes: every stem at 0 dB).
    const page = chromium.page;
    await signInThroughKeycloak(page);
    await page.evaluate(await studioMixBundle());
    const render = async (players: SeparatedStem[]) => {
      const result = await page.evaluate(
        ([stemsToPlay, rate, seconds]) =>
          (window as unknown as { renderStudioMix: (s: unknown, r: number, d: number) => Promise<{ when: number; left: string; right: string }> }).renderStudioMix(
            stemsToPlay,
            rate,
            seconds,
          ),
        [players, probe.sampleRate, probe.durationSeconds + 0.2] as const,
      );
      return { when: result.when, left: fromBase64(result.left), right: fromBase64(result.right) };
    };
    const studio = await render(mixed);
    const start = Math.round(studio.when * probe.sampleRate);
    const match = relativeDifference(exportedMix, studio, start);
    const unmixed = relativeDifference(exportedMix, await render(mixed.map((stem) => ({ ...stem, volume: 0, muted: false, soloed: false }))), start);
    console.log(
      `export vs the studio's MixGraph (OfflineAudioContext, ${probe.sampleRate} Hz): ${match.db.toFixed(1)} dB relative at offset ${match.offset} ` +
        `(start ${start}); against the unchanged mix ${unmixed.db.toFixed(1)} dB`,
    );
    expect(match.db).toBeLessThanOrEqual(MATCH_BOUND_DB);
    expect(unmixed.db).toBeGreaterThan(-30);
  });
});
