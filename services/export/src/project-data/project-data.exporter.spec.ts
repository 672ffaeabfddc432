import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Project, ProjectExportFormat, StemRecord } from '@stemdeck/proto';
import { ExportRefused } from '../exports/export-refused';
import { NOT_ANALYSED, PROJECT_NOT_FOUND, ProjectDataExporter, STEMS_NOT_READY } from './project-data.exporter';
import type { ProjectAnalysis, ProjectMedia } from './project-media';
import type { StemAudio } from './stem-audio';

const OWNER = 'owner-1';
const project: Project = {
  id: 'p1', name: 'Night/Drive', originalFile: 'night.wav', duration: 40, bpm: 120, key: 'A minor', source: 'audio', activeEngine: 'fast', createdAt: '2026-01-01T00:00:00.000Z',
};
const analysis: ProjectAnalysis = {
  loudnessLufs: -9,
  spotifyFeatures: {
    danceability: 0.7, energy: 0.8, valence: 0.4, acousticness: 0.1, instrumentalness: 0.2, liveness: 0.1, speechiness: 0.05,
    loudness: -9, tempo: 120, key: 9, mode: 0, time_signature: 4, duration_ms: 40_000,
  },
};
const stem = (type: StemRecord['type'], changes: Partial<StemRecord> = {}): StemRecord => ({
  id: `s-${type}`, projectId: 'p1', type, engine: 'fast', volume: 0, muted: false, soloed: false, quality: 'fast', version: 'original', enhanced: null, ...changes,
});

/** Media as a small in-memory fake: the owner's project, optionally without analysis or stems. */
class FakeMedia implements ProjectMedia {
  constructor(
    private readonly state: { analysis: ProjectAnalysis | null; stems: StemRecord[]; name?: string },
  ) {}
  async project(ownerId: string, projectId: string) {
    return ownerId === OWNER && projectId === project.id ? { ...project, name: this.state.name ?? project.name } : null;
  }
  async analysis() {
    return this.state.analysis;
  }
  async stems() {
    return [...this.state.stems];
  }
  async stemObjectKey(_ownerId: string, stemId: string) {
    return `objects/${stemId}.flac`;
  }
}

/** Stem audio without ffmpeg: a level per stem for 40 s at 60 fps, a tiny file for each clip. */
class FakeAudio implements StemAudio {
  readonly wavs: Array<{ objectKey: string; title: string }> = [];
  async framePower(objectKey: string, fps: number, progress?: { onProgress: (fraction: number) => void }) {
    progress?.onProgress(0.5);
    const level = objectKey.includes('drums') ? 0.25 : 0.01;
    // The second half of the song is 12 dB louder: the sections detector finds the bar line at 20 s (bar 11 at 2 s a bar).
    return Float64Array.from({ length: 40 * fps }, (_, frame) => (frame < 20 * fps ? level / 16 : level));
  }
  async writeWav(objectKey: string, outPath: string, title: string) {
    this.wavs.push({ objectKey, title });
    writeFileSync(outPath, 'RIFF');
  }
}

const fourStems = () => [stem('other'), stem('bass', { muted: true }), stem('vocals', { volume: -6 }), stem('drums')];

describe('ProjectDataExporter', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'project-data-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const refusal = async (run: Promise<unknown>) => {
    const error = await run.then(() => null, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExportRefused);
    return { status: (error as ExportRefused).status, message: (error as ExportRefused).message };
  };

  it('refuses another owner\'s or an unknown project with 404', async () => {
    const exporter = new ProjectDataExporter(new FakeMedia({ analysis, stems: fourStems() }), new FakeAudio());
    await expect(refusal(exporter.check('someone-else', 'p1', ['oscMidiConfig']))).resolves.toEqual({ status: 404, message: PROJECT_NOT_FOUND });
    await expect(refusal(exporter.check(OWNER, 'nope', ['spotifyJson']))).resolves.toEqual({ status: 404, message: PROJECT_NOT_FOUND });
  });

  it('refuses with 409 what needs the analysis or the stems before they exist; the OSC/MIDI map needs neither', async () => {
    const bare = new ProjectDataExporter(new FakeMedia({ analysis: null, stems: [] }), new FakeAudio());
    for (const format of ['spotifyJson', 'touchdesigner', 'resolume'] as ProjectExportFormat[]) {
      await expect(refusal(bare.check(OWNER, 'p1', [format]))).resolves.toEqual({ status: 409, message: NOT_ANALYSED });
    }
    await expect(bare.check(OWNER, 'p1', ['oscMidiConfig'])).resolves.toBeUndefined();
    const unseparated = new ProjectDataExporter(new FakeMedia({ analysis, stems: [] }), new FakeAudio());
    await expect(unseparated.check(OWNER, 'p1', ['spotifyJson', 'oscMidiConfig'])).resolves.toBeUndefined();
    for (const format of ['touchdesigner', 'resolume'] as ProjectExportFormat[]) {
      await expect(refusal(unseparated.check(OWNER, 'p1', ['spotifyJson', format]))).resolves.toEqual({ status: 409, message: STEMS_NOT_READY });
    }
    await expect(refusal(unseparated.write(OWNER, 'p1', ['resolume'], dir))).resolves.toEqual({ status: 409, message: STEMS_NOT_READY });
  });

  it('names the tempo and beats per bar in the OSC/MIDI map when the song is analysed, null before', async () => {
    const read = async (state: { analysis: ProjectAnalysis | null; stems: StemRecord[] }) => {
      const [file] = await new ProjectDataExporter(new FakeMedia(state), new FakeAudio()).write(OWNER, 'p1', ['oscMidiConfig'], dir);
      return JSON.parse(readFileSync(file!.path, 'utf8')).project;
    };
    await expect(read({ analysis, stems: [] })).resolves.toEqual({ id: 'p1', name: 'Night/Drive', durationSeconds: 40, bpm: 120, beatsPerBar: 4 });
    await expect(read({ analysis: null, stems: [] })).resolves.toMatchObject({ bpm: 120, beatsPerBar: null });
  });

  it('writes every format\'s files under the folder, with rising progress that ends at 1', async () => {
    const audio = new FakeAudio();
    const exporter = new ProjectDataExporter(new FakeMedia({ analysis, stems: fourStems() }), audio);
    const progress: number[] = [];
    const files = await exporter.write(OWNER, 'p1', ['spotifyJson', 'oscMidiConfig', 'touchdesigner', 'resolume'], dir, (fraction) => progress.push(fraction));
    expect(files.map((file) => file.name)).toEqual([
      'analysis.json',
      'osc-midi-config.json',
      'touchdesigner/beats.csv',
      'touchdesigner/sections.csv',
      'touchdesigner/envelopes.csv',
      'touchdesigner/osc-mapping.json',
      'touchdesigner/README.txt',
      'resolume/resolume.json',
      'resolume/clips/Night Drive - vocals.wav',
      'resolume/clips/Night Drive - drums.wav',
      'resolume/clips/Night Drive - bass.wav',
      'resolume/clips/Night Drive - other.wav',
      'resolume/README.txt',
    ]);
    // Clips are written by their index (the song's name goes only into the zip entry); the rest as named.
    for (const file of files) expect(file.path).toBe(join(dir, file.name.startsWith('resolume/clips/') ? `resolume/clips/${files.filter((f) => f.name.startsWith('resolume/clips/')).indexOf(file)}.wav` : file.name));
    expect(progress.at(-1)).toBe(1);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThanOrEqual(progress[i - 1]!);
    expect(progress.some((fraction) => fraction > 0 && fraction < 1)).toBe(true);

    const read = (name: string) => readFileSync(join(dir, name), 'utf8');
    expect(JSON.parse(read('analysis.json'))).toMatchObject({ id: 'p1', type: 'audio_features', tempo: 120, key: 9 });
    expect(read('touchdesigner/beats.csv').trim().split('\n')).toHaveLength(1 + 80);
    // Stems in the studio's order; vocals at −6 dB, bass muted.
    const envelopes = read('touchdesigner/envelopes.csv').trim().split('\n');
    expect(envelopes[0]).toBe('time,vocals,drums,bass,other');
    expect(envelopes).toHaveLength(1 + 40 * 60);
    expect(envelopes.at(-1)).toBe(`39.9833,${(0.1 * 10 ** (-6 / 20)).toFixed(4)},0.5,0,0.1`);
    expect(read('touchdesigner/sections.csv').trim().split('\n').slice(1)).toEqual(['0,20,1,10,section 1 (low),0.25', '20,40,11,20,section 2 (high),1']);
    expect(audio.wavs.map((wav) => wav.title)).toEqual(['Night/Drive - vocals', 'Night/Drive - drums', 'Night/Drive - bass', 'Night/Drive - other']);
    const resolume = JSON.parse(read('resolume/resolume.json'));
    expect(resolume.clips.map((clip: { file: string; layer: number }) => [clip.file, clip.layer])).toEqual([
      ['clips/Night Drive - vocals.wav', 1], ['clips/Night Drive - drums.wav', 2], ['clips/Night Drive - bass.wav', 3], ['clips/Night Drive - other.wav', 4],
    ]);
    expect(resolume.clips[2]).toMatchObject({ stem: 'bass', muted: true });
  });

  it.each([
    ['100 emoji', '🎵'.repeat(100)],
    ['100 CJK characters', '日本語の歌'.repeat(20)],
  ])('resolume: a song named with %s writes its clips (named by index on disk) under its capped name in the kit', async (_what, name) => {
    const audio = new FakeAudio();
    const files = await new ProjectDataExporter(new FakeMedia({ analysis, stems: [stem('vocals'), stem('bass')], name }), audio).write(OWNER, 'p1', ['resolume'], dir);
    const clips = files.filter((file) => file.name.startsWith('resolume/clips/'));
    expect(clips.map((file) => file.path)).toEqual([join(dir, 'resolume/clips/0.wav'), join(dir, 'resolume/clips/1.wav')]);
    for (const file of clips) {
      expect(readFileSync(file.path, 'utf8')).toBe('RIFF');
      const base = file.name.slice('resolume/clips/'.length);
      expect(Buffer.byteLength(base, 'utf8')).toBeLessThanOrEqual(255);
      expect(base.startsWith(name.slice(0, 10))).toBe(true);
    }
    expect(audio.wavs.map((wav) => wav.title)).toEqual([`${name} - vocals`, `${name} - bass`]);
  });
});
