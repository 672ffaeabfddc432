import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { z } from 'zod';
import { chromiumPerTest, expectReadableToast, signInThroughKeycloak } from '../support/browser';
import { BASE_URL } from '../support/env';
import { makeClip } from '../support/media';
import { expectInViewport, uploadThroughChooser, waitForStems } from '../support/studio';

jest.setTimeout(420_000);

const CLIP_SECONDS = 20;
const SONG = 'e2e-export-20s';

interface Probe {
  codec: string;
  formatName: string;
  sampleRate: number;
  bits: number;
  bitRate: number;
  channels: number;
  duration: number;
  tags: Record<string, string>;
}

/** What ffprobe finds in a file: its first audio stream and its container's tags (names lower-cased). */
function probe(path: string): Probe {
  const answer = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', path]).toString()) as {
    streams: Array<{ codec_type: string; codec_name: string; sample_rate: string; bits_per_sample?: number; bits_per_raw_sample?: string; bit_rate?: string; channels: number; tags?: Record<string, string> }>;
    format: { format_name: string; duration: string; tags?: Record<string, string> };
  };
  const stream = answer.streams.find((s) => s.codec_type === 'audio')!;
  const tags = Object.fromEntries(Object.entries({ ...stream.tags, ...answer.format.tags }).map(([name, value]) => [name.toLowerCase(), value]));
  return {
    codec: stream.codec_name,
    formatName: answer.format.format_name,
    sampleRate: Number(stream.sample_rate),
    bits: Math.max(Number(stream.bits_per_sample ?? 0), Number(stream.bits_per_raw_sample ?? 0)),
    bitRate: Number(stream.bit_rate ?? 0),
    channels: stream.channels,
    duration: Number(answer.format.duration),
    tags,
  };
}

const zipEntries = (path: string): string[] => execFileSync('unzip', ['-Z1', path]).toString().split('\n').filter(Boolean).sort();
const zipText = (path: string, entry: string): string => execFileSync('unzip', ['-p', path, entry], { maxBuffer: 64 * 1024 * 1024 }).toString();
/** Extracts one entry to a fresh folder and returns its path there. */
function zipExtract(path: string, entry: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'stemdeck-e2e-zip-'));
  execFileSync('unzip', ['-q', path, entry, '-d', dir]);
  return join(dir, entry);
}

/** The Spotify Web API audio-features object, field for field, with its ranges. */
const SpotifyAudioFeatures = z
  .object({
    acousticness: z.number().min(0).max(1),
    analysis_url: z.string().min(1),
    danceability: z.number().min(0).max(1),
    duration_ms: z.number().int().positive(),
    energy: z.number().min(0).max(1),
    id: z.string().min(1),
    instrumentalness: z.number().min(0).max(1),
    key: z.number().int().min(-1).max(11),
    liveness: z.number().min(0).max(1),
    loudness: z.number().max(0),
    mode: z.union([z.literal(0), z.literal(1)]),
    speechiness: z.number().min(0).max(1),
    tempo: z.number().positive(),
    time_signature: z.number().int().min(3).max(7),
    track_href: z.string().min(1),
    type: z.literal('audio_features'),
    uri: z.string().min(1),
    valence: z.number().min(0).max(1),
  })
  .strict();

interface StoredAnalysis {
  spotifyFeatures: Record<'tempo' | 'key' | 'mode' | 'time_signature' | (typeof RATIO_FEATURES)[number], number>;
  loudnessLufs: number;
}

const RATIO_FEATURES = ['danceability', 'energy', 'valence', 'acousticness', 'instrumentalness', 'liveness', 'speechiness'] as const;
const PITCH_CLASSES = ['C', 'C♯', 'D', 'D♯', 'E', 'F', 'F♯', 'G', 'G♯', 'A', 'A♯', 'B'];

/** What each analysis row must read for the stored analysis (pitch class and mode as a key name; −1: no key, a dash). */
function expectedAnalysisRows({ spotifyFeatures: features, loudnessLufs }: StoredAnalysis): Record<string, string> {
  const key = features.key >= 0 && features.key <= 11 ? `${PITCH_CLASSES[features.key]} ${features.mode === 1 ? 'major' : 'minor'}` : '—';
  return {
    tempo: `${features.tempo.toFixed(1)} BPM`,
    key,
    loudness: `${loudnessLufs.toFixed(1)} LUFS`,
    'time-signature': `${features.time_signature}/4`,
    ...Object.fromEntries(RATIO_FEATURES.map((feature) => [feature, features[feature].toFixed(2)])),
  };
}

interface FormatCase {
  format: string;
  label: string;
  extension: string;
  check(p: Probe): void;
}

/** Each format as its panel label names it, and what the file must be. */
const FORMATS: FormatCase[] = [
  { format: 'wav-24-48', label: 'WAV 24-bit / 48 kHz', extension: 'wav', check: (p) => expect([p.codec, p.sampleRate, p.bits]).toEqual(['pcm_s24le', 48_000, 24]) },
  { format: 'wav-16-44', label: 'WAV 16-bit / 44.1 kHz (dithered)', extension: 'wav', check: (p) => expect([p.codec, p.sampleRate, p.bits]).toEqual(['pcm_s16le', 44_100, 16]) },
  { format: 'aiff-24-48', label: 'AIFF 24-bit / 48 kHz', extension: 'aiff', check: (p) => expect([p.formatName, p.codec, p.sampleRate, p.bits]).toEqual(['aiff', 'pcm_s24be', 48_000, 24]) },
  { format: 'mp3-320', label: 'MP3 320 kbps', extension: 'mp3', check: (p) => expect([p.codec, p.bitRate]).toEqual(['mp3', 320_000]) },
  // Lossless at the stems' rate: the clip is 44.1 kHz, the stems are 24-bit FLAC.
  { format: 'flac', label: 'FLAC (lossless)', extension: 'flac', check: (p) => expect([p.codec, p.sampleRate, p.bits]).toEqual(['flac', 44_100, 24]) },
];

/** Every label the Export button of `testId` shows from now on. */
async function recordLabels(page: Page, testId: string): Promise<() => Promise<string[]>> {
  await page.evaluate((testId) => {
    const seen: string[] = [];
    (window as unknown as Record<string, string[]>)[`labels-${testId}`] = seen;
    const record = () => {
      const label = document.querySelector(`[data-testid="${testId}"]`)?.textContent?.trim();
      if (label && seen.at(-1) !== label) seen.push(label);
    };
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true });
    record();
  }, testId);
  return () => page.evaluate((testId) => (window as unknown as Record<string, string[]>)[`labels-${testId}`]!, testId);
}

/**
 * Presses the button and returns the file its export downloads by itself. The "done" toast, when `toast`
 * names it, is watched for from the click on: it appears as the download starts and lasts five seconds,
 * which a large kit on a slow machine can outlast.
 */
async function exportAndDownload(page: Page, testId: string, toast?: string): Promise<{ path: string; filename: string }> {
  const download = page.waitForEvent('download', { timeout: 90_000 });
  const announced = toast ? expectReadableToast(page, toast, 90_000) : undefined;
  announced?.catch(() => undefined); // awaited below; a failed download is reported first
  await page.getByTestId(testId).click();
  const file = await download.catch(async (error: Error) => {
    throw new Error(`${error.message}\ntoasts: ${await page.getByTestId('toast').allInnerTexts()}`);
  });
  const [path] = await Promise.all([file.path(), announced]);
  expect(await file.failure()).toBeNull();
  return { path, filename: file.suggestedFilename() };
}

describe('Export & Share in Chromium: audio and project data', () => {
  const chromium = chromiumPerTest({ width: 1400, height: 1000 });
  let page: Page;

  beforeEach(async () => {
    page = chromium.page;
    await signInThroughKeycloak(page);
    await page.goto(`${BASE_URL}/app`);
    await page.getByTestId('upload-panel').waitFor();
  });

  it('exports the full mix in all five formats, every stem and chosen stems as zips, and the project data; shows the real analysis', async () => {
    await page.getByRole('button', { name: 'Export & Share' }).click();
    await page.getByTestId('export-no-project').waitFor();
    expect(await page.getByTestId('export-audio').isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Upload & Split' }).click();
    const uploaded = page.waitForResponse((response) => response.url().endsWith('/api/upload') && response.request().method() === 'POST');
    await uploadThroughChooser(page, makeClip(`${SONG}.wav`, CLIP_SECONDS));
    const projectId = ((await (await uploaded).json()) as { project: { id: string } }).project.id;
    await waitForStems(page, 120_000);
    await page.getByTestId('separation-fast').waitFor({ state: 'detached', timeout: 120_000 });

    await page.getByRole('button', { name: 'Export & Share' }).click();
    expect(await page.getByTestId('export-project-name').innerText()).toBe(`Project: ${SONG}`);

    // The analysis view shows what the server stored for this song, every figure of it, not sample figures.
    const analysed = await page.request.get(`${BASE_URL}/api/projects/${projectId}/analysis`);
    expect(analysed.status()).toBe(200);
    const stored = (await analysed.json()) as StoredAnalysis;
    await page.locator('[data-testid="analysis-view"][data-analysed="true"]').waitFor();
    await expectInViewport(page, 'analysis-view');
    for (const [id, expected] of Object.entries(expectedAnalysisRows(stored))) {
      expect([id, await page.getByTestId(`analysis-${id}-value`).innerText()]).toEqual([id, expected]);
    }

    // No master or enhancement yet: those versions cannot be chosen, and the panel says why.
    await page.locator('[data-testid="variant-landr"][data-available="false"]').waitFor();
    expect(await page.getByTestId('variant-landr').locator('input').isDisabled()).toBe(true);
    expect((await page.getByTestId('variant-landr-reason').innerText()).length).toBeGreaterThan(10);
    expect(await page.getByTestId('variant-raw').locator('input').isChecked()).toBe(true);

    // The full mix in each format, checked by ffprobe.
    const labels = await recordLabels(page, 'export-audio');
    for (const [index, format] of FORMATS.entries()) {
      await page.getByLabel('Format').selectOption({ label: format.label });
      const { path, filename } = await exportAndDownload(page, 'export-audio', index === 0 ? 'Export ready!' : undefined);
      expect(filename).toBe(`${SONG} - full mix.${format.extension}`);
      const found = probe(path);
      format.check(found);
      expect(found.channels).toBe(2);
      expect(Math.abs(found.duration - CLIP_SECONDS)).toBeLessThan(0.1);
      if (format.format === 'flac' || format.format === 'mp3-320') expect(found.tags.title).toContain(SONG);
    }
    const seen = await labels();
    expect(seen[0]).toBe('Export Audio');
    expect(seen).toContain('Exporting...');
    expect(seen.at(-1)).toBe('Export Audio');

    // Every stem, one zip with sensible names.
    await page.getByLabel('Export', { exact: true }).selectOption('individual');
    await page.getByLabel('Format').selectOption({ label: 'WAV 24-bit / 48 kHz' });
    const stems = await exportAndDownload(page, 'export-audio');
    expect(stems.filename).toBe(`${SONG} - stems.zip`);
    expect(zipEntries(stems.path)).toEqual(['bass', 'drums', 'other', 'vocals'].map((type) => `${SONG} - ${type}.wav`));
    const vocals = zipExtract(stems.path, `${SONG} - vocals.wav`);
    expect([probe(vocals).codec, probe(vocals).sampleRate]).toEqual(['pcm_s24le', 48_000]);
    rmSync(join(vocals, '..'), { recursive: true, force: true });

    // The ticked stems only.
    await page.getByLabel('Export', { exact: true }).selectOption('selected');
    await page.getByLabel('Format').selectOption({ label: 'FLAC (lossless)' });
    expect(await page.getByTestId('export-audio').isDisabled()).toBe(true);
    await page.getByTestId('export-stem-vocals').check();
    await page.getByTestId('export-stem-drums').check();
    const chosen = await exportAndDownload(page, 'export-audio');
    expect(chosen.filename).toMatch(/\.zip$/);
    expect(zipEntries(chosen.path)).toEqual([`${SONG} - drums.flac`, `${SONG} - vocals.flac`]);

    // Project data for other tools: the Spotify features, the OSC/MIDI map, the TouchDesigner and Resolume kits.
    for (const format of ['oscMidiConfig', 'touchdesigner', 'resolume']) await page.getByTestId(`project-format-${format}`).check();
    expect(await page.getByTestId('project-format-spotifyJson').isChecked()).toBe(true);
    const data = await exportAndDownload(page, 'export-project', 'Project exported!');
    expect(data.filename).toMatch(/\.zip$/);
    const entries = zipEntries(data.path);
    for (const entry of ['analysis.json', 'osc-midi-config.json', 'touchdesigner/beats.csv', 'touchdesigner/envelopes.csv', 'touchdesigner/sections.csv', 'touchdesigner/osc-mapping.json', 'resolume/resolume.json']) {
      expect(entries).toContain(entry);
    }
    const features = SpotifyAudioFeatures.parse(JSON.parse(zipText(data.path, 'analysis.json')));
    expect(features.tempo).toBeCloseTo(stored.spotifyFeatures.tempo, 2);
    expect(features.id).toBe(projectId);
    expect(zipText(data.path, 'osc-midi-config.json')).toContain('/stemdeck/');
    const beats = zipText(data.path, 'touchdesigner/beats.csv').trim().split('\n');
    // A header, then about one row per beat of the 20 s song.
    const expectedBeats = (CLIP_SECONDS * stored.spotifyFeatures.tempo) / 60;
    expect(Math.abs(beats.length - 1 - expectedBeats)).toBeLessThanOrEqual(2);
    const resolume = JSON.parse(zipText(data.path, 'resolume/resolume.json')) as { tempo: { bpm: number } };
    expect(resolume.tempo.bpm).toBeGreaterThan(0);
    const clips = entries.filter((entry) => /^resolume\/clips\/.+\.wav$/.test(entry));
    expect(clips).toHaveLength(4);
    const clip = zipExtract(data.path, clips[0]!);
    expect(probe(clip).codec).toMatch(/^pcm_/);
    expect(statSync(clip).size).toBeGreaterThan(100_000);
    rmSync(join(clip, '..', '..', '..'), { recursive: true, force: true });

    // The Spotify features alone are one JSON file, no zip.
    for (const format of ['oscMidiConfig', 'touchdesigner', 'resolume']) await page.getByTestId(`project-format-${format}`).uncheck();
    const json = await exportAndDownload(page, 'export-project');
    expect(json.filename).toBe(`${SONG} - analysis.json`);
    SpotifyAudioFeatures.parse(JSON.parse(readFileSync(json.path, 'utf8')));
  });
});
