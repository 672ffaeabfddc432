import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { BASE_URL, CSRF } from '../support/env';
import { fixturePath, uploadSeparated, type SeparatedStem } from '../support/media';
import { signIn, type SignedInAgent } from '../support/sign-in';

const json = { ...CSRF, 'content-type': 'application/json' };
const SONG = 'export-project-64s';
const SONG_SECONDS = 64;
const STEM_ORDER = ['vocals', 'drums', 'bass', 'other'];

/**
 * 64 s of the test signal (a 110 Hz and a 660 Hz tone and a 2 Hz noise pulse, a beat), the first half 20 dB
 * quieter than the second: a song with two sections whose bar line the sections detector must find.
 */
function twoSectionSong(): string {
  const path = fixturePath(`${SONG}.wav`);
  const sources = [
    `sine=frequency=110:sample_rate=44100:duration=${SONG_SECONDS}`,
    `sine=frequency=660:sample_rate=44100:duration=${SONG_SECONDS}`,
    `anoisesrc=color=white:amplitude=0.5:sample_rate=44100:duration=${SONG_SECONDS},volume='if(lt(mod(t,0.5),0.05),1,0)':eval=frame`,
  ].flatMap((source) => ['-f', 'lavfi', '-i', source]);
  const mix = `[0:a][1:a][2:a]amix=inputs=3:normalize=0,volume='if(lt(t,${SONG_SECONDS / 2}),0.1,1)':eval=frame,pan=stereo|c0=c0|c1=c0[a]`;
  execFileSync('ffmpeg', ['-v', 'error', '-y', ...sources, '-filter_complex', mix, '-map', '[a]', '-c:a', 'pcm_s16le', path]);
  return path;
}

// What each file must hold, written from the formats' documentation (README "Project data exports"), not from the code.

/** Spotify's Web API audio-features object: its 18 fields, their types and ranges, nothing else. */
const SpotifyAudioFeatures = z
  .object({
    acousticness: z.number().min(0).max(1),
    analysis_url: z.string().startsWith('/api/projects/'),
    danceability: z.number().min(0).max(1),
    duration_ms: z.number().int().positive(),
    energy: z.number().min(0).max(1),
    id: z.string().min(1),
    instrumentalness: z.number().min(0).max(1),
    key: z.number().int().min(-1).max(11),
    liveness: z.number().min(0).max(1),
    loudness: z.number().min(-70).max(0),
    mode: z.union([z.literal(0), z.literal(1)]),
    speechiness: z.number().min(0).max(1),
    tempo: z.number().positive(),
    time_signature: z.number().int().min(3).max(7),
    track_href: z.string().startsWith('/api/projects/'),
    type: z.literal('audio_features'),
    uri: z.string().regex(/^stemdeck:project:/),
    valence: z.number().min(0).max(1),
  })
  .strict();

const OscArgument = z
  .object({
    name: z.string().min(1),
    type: z.enum(['s', 'i', 'f', 'i|f']),
    unit: z.string().optional(),
    min: z.number().optional(),
    max: z.number().optional(),
    values: z.array(z.string()).min(1).optional(),
  })
  .strict()
  .refine((arg) => (arg.type === 's' ? arg.values !== undefined : arg.min !== undefined), 'a text argument lists its values, a number its range');
const OscMessage = z.object({ address: z.string().regex(/^\/stemdeck\/[a-z_/]+$/), when: z.string().min(1), args: z.array(OscArgument).min(1) }).strict();
const Byte = z.number().int().min(0).max(255);
const OscMidiConfig = z
  .object({
    format: z.literal('stemdeck-osc-midi-config'),
    version: z.literal(1),
    project: z.object({ id: z.string(), name: z.string(), durationSeconds: z.number().nonnegative(), bpm: z.number().positive().nullable(), beatsPerBar: z.number().int().min(3).max(7).nullable() }).strict(),
    osc: z
      .object({
        transport: z.string().min(1),
        bridge: z.object({ websocket: z.literal('ws://127.0.0.1:7400'), defaultTarget: z.object({ host: z.literal('127.0.0.1'), port: z.literal(7000) }).strict() }).strict(),
        prefix: z.literal('/stemdeck'),
        messages: z.array(OscMessage).min(1),
      })
      .strict(),
    midi: z
      .object({
        output: z.string().min(1),
        velocity: z.literal(127),
        messages: z.array(z.object({ name: z.string(), status: Byte, bytes: z.array(Byte).min(1).max(3), when: z.string(), noteOffAfterMs: z.number().positive().optional() }).strict()).min(1),
      })
      .strict(),
  })
  .strict();
/** The addresses the studio sends (frontend/src/audio/playbackEvents.ts, the performance pads). */
const STUDIO_ADDRESSES = [
  '/stemdeck/transport',
  '/stemdeck/beat',
  ...STEM_ORDER.map((stem) => `/stemdeck/stem/${stem}_rms`),
  ...['vocals', 'drums', 'bass', 'other', 'filter', 'reverb', 'delay', 'distort'].map((pad) => `/stemdeck/pad/${pad}`),
];

const TouchDesignerOscMapping = z
  .object({
    format: z.literal('stemdeck-touchdesigner-osc'),
    version: z.literal(1),
    receive: z.object({ protocol: z.literal('udp'), port: z.number().int().min(1).max(65535), note: z.string() }).strict(),
    prefix: z.literal('/stemdeck'),
    messages: z.array(OscMessage.extend({ operator: z.enum(['OSC In CHOP', 'OSC In DAT']) })).min(1),
    tables: z.object({ 'beats.csv': z.object({}).passthrough(), 'sections.csv': z.object({}).passthrough(), 'envelopes.csv': z.object({ fps: z.literal(60) }).passthrough() }).strict(),
  })
  .strict();

const ResolumeAddress = z.string().regex(/^\/composition\/[a-z0-9/]+$/);
const ResolumeConfig = z
  .object({
    format: z.literal('stemdeck-resolume'),
    version: z.literal(1),
    song: z.object({ name: z.string(), durationSeconds: z.number().positive() }).strict(),
    tempo: z.object({ bpm: z.number().positive(), oscAddress: z.literal('/composition/tempocontroller/tempo'), oscValue: z.number().min(0).max(1), oscRange: z.object({ min: z.literal(20), max: z.literal(500) }).strict() }).strict(),
    beatGrid: z
      .object({ firstBeatSeconds: z.literal(0), beatsPerBar: z.number().int().min(3).max(7), beatSeconds: z.number().positive(), barSeconds: z.number().positive(), beats: z.number().int().positive(), bars: z.number().int().positive() })
      .strict(),
    clips: z
      .array(
        z
          .object({ stem: z.enum(['vocals', 'drums', 'bass', 'other']), file: z.string().regex(/^clips\/.+ - (vocals|drums|bass|other)\.wav$/), volumeDb: z.number(), muted: z.boolean(), soloed: z.boolean(), layer: z.number().int().min(1).max(4), column: z.literal(1) })
          .strict(),
      )
      .length(4),
    osc: z
      .object({
        input: z.object({ host: z.string(), port: z.literal(7000), note: z.string() }).strict(),
        setup: z.array(z.object({ address: ResolumeAddress, type: z.enum(['i', 'f']), value: z.number(), meaning: z.string() }).strict()).min(1),
        mapping: z
          .array(z.object({ from: z.string().startsWith('/stemdeck/'), args: z.array(z.string()), to: ResolumeAddress, type: z.enum(['i', 'f']), value: z.union([z.number(), z.literal('rms')]), meaning: z.string() }).strict())
          .min(1),
      })
      .strict(),
  })
  .strict();

/** A CSV's rows as records (no quoted commas in these files but the labels', which hold none). */
function csv(text: string): { header: string[]; rows: string[][] } {
  const [header, ...rows] = text.trimEnd().split('\n').map((line) => line.split(','));
  return { header: header!, rows };
}

interface ExportAnswer {
  id: string;
  filename: string;
  downloadUrl: string;
  expiresAt: string;
}

const exportProject = (agent: SignedInAgent, body: unknown) => agent.fetch('/api/export/project', { method: 'POST', headers: json, body: JSON.stringify(body) });

/** The download the answer points at, through the signed-in agent (a relative or same-origin url). */
async function download(agent: SignedInAgent, answer: ExportAnswer): Promise<Response> {
  const url = new URL(answer.downloadUrl, BASE_URL);
  return agent.fetch(`${url.pathname}${url.search}`);
}

interface ProbedClip {
  codec: string;
  formatName: string;
  sampleRate: number;
  channels: number;
  bits: number;
  duration: number;
  title: string | undefined;
}
function probeClip(path: string): ProbedClip {
  const answer = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', path]).toString()) as {
    streams: Array<{ codec_name: string; sample_rate: string; channels: number; bits_per_sample: number }>;
    format: { format_name: string; duration: string; tags?: Record<string, string> };
  };
  const stream = answer.streams[0]!;
  return {
    codec: stream.codec_name,
    formatName: answer.format.format_name,
    sampleRate: Number(stream.sample_rate),
    channels: stream.channels,
    bits: stream.bits_per_sample,
    duration: Number(answer.format.duration),
    title: answer.format.tags?.title,
  };
}

describe('Project and analysis export through the gateway (POST /api/export/project)', () => {
  let demo: SignedInAgent;
  let rival: SignedInAgent;
  let projectId: string;
  let stems: SeparatedStem[];
  let project: { id: string; name: string; duration: number; bpm: number };
  let stored: { spotifyFeatures: Record<string, number>; loudnessLufs: number };
  let dir: string;

  beforeAll(async () => {
    [demo, rival] = await Promise.all([signIn('demo', 'demo'), signIn('rival', 'rival')]);
    ({ projectId, stems } = await uploadSeparated(demo, twoSectionSong(), { fileName: `${SONG}.wav` }));
    // The analysis is stored when the decode ends, before the stems are; read it once it is there.
    for (let tries = 0; tries < 100; tries++) {
      const response = await demo.fetch(`/api/projects/${projectId}/analysis`);
      if (response.status === 200) {
        stored = (await response.json()) as typeof stored;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(stored).toBeDefined();
    project = (await (await demo.fetch(`/api/projects/${projectId}`)).json()) as typeof project;
    // The mixer as the owner left it: vocals at −6 dB, bass muted (the envelopes follow the mixer).
    const byType = Object.fromEntries(stems.map((stem) => [stem.type, stem]));
    for (const [type, changes] of [['vocals', { volume: -6 }], ['bass', { muted: true }]] as const) {
      const response = await demo.fetch(`/api/stems/${byType[type]!.id}`, { method: 'PUT', headers: json, body: JSON.stringify(changes) });
      expect(response.status).toBe(200);
    }
    dir = mkdtempSync(join(tmpdir(), 'stemdeck-export-project-'));
  }, 120_000);

  afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('exports all four formats as one zip in which every file matches its documented schema', async () => {
    const started = Date.now();
    const response = await exportProject(demo, { projectId, formats: ['spotifyJson', 'oscMidiConfig', 'touchdesigner', 'resolume'] });
    expect([200, 201]).toContain(response.status);
    const answer = (await response.json()) as ExportAnswer;
    expect(answer).toMatchObject({ id: expect.any(String), filename: expect.stringMatching(/\.zip$/), downloadUrl: expect.any(String) });
    const zipped = await download(demo, answer);
    expect(zipped.status).toBe(200);
    expect(zipped.headers.get('content-type')).toBe('application/zip');
    const zipPath = join(dir, 'all.zip');
    writeFileSync(zipPath, Buffer.from(await zipped.arrayBuffer()));
    const unpacked = join(dir, 'all');
    execFileSync('unzip', ['-q', zipPath, '-d', unpacked]);
    const entries = execFileSync('unzip', ['-Z1', zipPath]).toString().split('\n').filter(Boolean).sort();
    const clips = STEM_ORDER.map((stem) => `resolume/clips/${SONG} - ${stem}.wav`);
    expect(entries).toEqual(
      [
        'analysis.json',
        'osc-midi-config.json',
        'touchdesigner/README.txt',
        'touchdesigner/beats.csv',
        'touchdesigner/envelopes.csv',
        'touchdesigner/osc-mapping.json',
        'touchdesigner/sections.csv',
        'resolume/README.txt',
        'resolume/resolume.json',
        ...clips,
      ].sort(),
    );
    const text = (entry: string) => readFileSync(join(unpacked, entry), 'utf8');
    const duration = project.duration;
    const bpm = project.bpm;
    const beatsPerBar = stored.spotifyFeatures.time_signature!;

    // analysis.json: Spotify's object, holding the analysis the studio shows.
    const features = SpotifyAudioFeatures.parse(JSON.parse(text('analysis.json')));
    expect(features).toMatchObject({ ...stored.spotifyFeatures, id: projectId, uri: `stemdeck:project:${projectId}`, track_href: `/api/projects/${projectId}`, analysis_url: `/api/projects/${projectId}/analysis` });

    // osc-midi-config.json: every address the studio sends, each MIDI message with its bytes.
    const config = OscMidiConfig.parse(JSON.parse(text('osc-midi-config.json')));
    expect(config.osc.messages.map((message) => message.address)).toEqual(STUDIO_ADDRESSES);
    expect(config.project).toEqual({ id: projectId, name: SONG, durationSeconds: duration, bpm, beatsPerBar });
    expect(config.midi.messages.map((message) => message.bytes)).toEqual(
      expect.arrayContaining([[250], [251], [252], [0xf8], [0x90, 36, 127], [0x90, 48, 127], [0x90, 55, 127]]),
    );

    // beats.csv: beat n at n × 60 / bpm, every beat before the end, bars of the time signature.
    const beats = csv(text('touchdesigner/beats.csv'));
    expect(beats.header).toEqual(['beat', 'time', 'bar', 'beat_in_bar']);
    expect(beats.rows).toHaveLength(Math.ceil((duration * bpm) / 60));
    for (const [index, row] of beats.rows.entries()) {
      expect(Number(row[0])).toBe(index);
      expect(Number(row[1])).toBeCloseTo((index * 60) / bpm, 3);
      expect(Number(row[2])).toBe(Math.floor(index / beatsPerBar) + 1);
      expect(Number(row[3])).toBe((index % beatsPerBar) + 1);
    }

    // envelopes.csv: 60 rows a second, the stems' RMS 0..1 after the mixer (bass muted reads 0).
    const envelopes = csv(text('touchdesigner/envelopes.csv'));
    expect(envelopes.header).toEqual(['time', ...STEM_ORDER]);
    expect(Math.abs(envelopes.rows.length - duration * 60)).toBeLessThanOrEqual(2);
    for (const [frame, row] of envelopes.rows.entries()) {
      expect(Number(row[0])).toBeCloseTo(frame / 60, 3);
      for (const value of row.slice(1).map(Number)) expect(value >= 0 && value <= 1).toBe(true);
      expect(Number(row[3])).toBe(0);
    }
    const level = (from: number, to: number) =>
      envelopes.rows.slice(from * 60, to * 60).reduce((sum, row) => sum + row.slice(1).reduce((a, value) => a + Number(value) ** 2, 0), 0) / ((to - from) * 60);
    // The second half is 20 dB louder; the measured power says so within a few dB.
    expect(10 * Math.log10(level(34, 62) / level(2, 30))).toBeGreaterThan(14);

    // sections.csv: from 0 to the end without gaps, bar lines on the grid, the quiet half low and the loud half high.
    const sections = csv(text('touchdesigner/sections.csv'));
    expect(sections.header).toEqual(['start', 'end', 'start_bar', 'end_bar', 'label', 'energy']);
    const barSeconds = (60 / bpm) * beatsPerBar;
    expect(sections.rows.length).toBeGreaterThanOrEqual(2);
    expect(Number(sections.rows[0]![0])).toBe(0);
    expect(Number(sections.rows.at(-1)![1])).toBeCloseTo(duration, 3);
    for (const [index, row] of sections.rows.entries()) {
      expect(row[4]).toMatch(new RegExp(`^section ${index + 1} \\((low|mid|high)\\)$`));
      expect(Number(row[5]) >= 0 && Number(row[5]) <= 1).toBe(true);
      expect(Number(row[0])).toBeCloseTo((Number(row[2]) - 1) * barSeconds, 3);
      if (index > 0) expect(row[0]).toBe(sections.rows[index - 1]![1]);
      if (index < sections.rows.length - 1) expect(Number(row[3]) - Number(row[2]) + 1).toBeGreaterThanOrEqual(8);
    }
    const lines = sections.rows.slice(1).map((row) => Number(row[0]));
    expect(lines.some((seconds) => Math.abs(seconds - SONG_SECONDS / 2) <= barSeconds)).toBe(true);
    expect(sections.rows[0]![4]).toMatch(/\(low\)$/);
    expect(sections.rows.at(-1)![4]).toMatch(/\(high\)$/);
    expect(Math.max(...sections.rows.map((row) => Number(row[5])))).toBe(1);

    const mapping = TouchDesignerOscMapping.parse(JSON.parse(text('touchdesigner/osc-mapping.json')));
    expect(mapping.messages.map((message) => message.address)).toEqual(STUDIO_ADDRESSES);
    expect(text('touchdesigner/README.txt')).toMatch(/DAT to CHOP[\s\S]*60 samples per second/);

    // resolume.json: tempo, beat grid, the four clips on layers 1–4 and the OSC mapping in Resolume's scheme.
    const resolume = ResolumeConfig.parse(JSON.parse(text('resolume/resolume.json')));
    expect(resolume.tempo.bpm).toBe(bpm);
    expect(resolume.tempo.oscValue).toBeCloseTo((bpm - 20) / 480, 9);
    expect(resolume.beatGrid).toMatchObject({ beatsPerBar, beats: beats.rows.length });
    expect(resolume.beatGrid.beatSeconds).toBeCloseTo(60 / bpm, 9);
    expect(resolume.clips.map((clip) => [clip.stem, `resolume/${clip.file}`, clip.layer])).toEqual(STEM_ORDER.map((stem, index) => [stem, clips[index], index + 1]));
    expect(resolume.clips.find((clip) => clip.stem === 'bass')).toMatchObject({ muted: true });
    expect(resolume.clips.find((clip) => clip.stem === 'vocals')!.volumeDb).toBeCloseTo(-6, 6);
    expect(resolume.osc.mapping.map((row) => row.from)).toEqual(expect.arrayContaining(['/stemdeck/transport', '/stemdeck/beat', '/stemdeck/stem/vocals_rms', '/stemdeck/pad/drums']));
    expect(text('resolume/README.txt')).toContain(`${SONG} - vocals.wav`);

    // The clips: WAV, 16-bit PCM at the stems' rate, stereo, the song's whole length, titled.
    for (const [index, clip] of clips.entries()) {
      const probed = probeClip(join(unpacked, clip));
      expect(probed).toMatchObject({ codec: 'pcm_s16le', formatName: 'wav', sampleRate: 44_100, channels: 2, bits: 16, title: `${SONG} - ${STEM_ORDER[index]}` });
      expect(Math.abs(probed.duration - duration)).toBeLessThan(0.1);
    }
    console.log(`project export of a ${duration.toFixed(1)} s song, all four formats: ${Date.now() - started} ms`);
  }, 120_000);

  it('answers a single format with the file itself, named after the song', async () => {
    const response = await exportProject(demo, { projectId, formats: ['spotifyJson'] });
    expect([200, 201]).toContain(response.status);
    const answer = (await response.json()) as ExportAnswer;
    expect(answer.filename).toBe(`${SONG} - analysis.json`);
    const file = await download(demo, answer);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^application\/json/);
    expect(SpotifyAudioFeatures.parse(await file.json()).id).toBe(projectId);

    const osc = (await (await download(demo, (await (await exportProject(demo, { projectId, formats: ['oscMidiConfig'] })).json()) as ExportAnswer)).json()) as unknown;
    expect(OscMidiConfig.parse(osc).osc.messages).toHaveLength(STUDIO_ADDRESSES.length);
  }, 60_000);

  it('answers 404 for another user\'s project and an unknown one, and the other user cannot download the owner\'s export', async () => {
    for (const formats of [['spotifyJson'], ['oscMidiConfig'], ['touchdesigner', 'resolume']]) {
      const foreign = await exportProject(rival, { projectId, formats });
      expect(foreign.status).toBe(404);
      expect(((await foreign.json()) as { message: string }).message).toBe('Project not found');
    }
    expect((await exportProject(demo, { projectId: 'no-such-project', formats: ['oscMidiConfig'] })).status).toBe(404);
    const answer = (await (await exportProject(demo, { projectId, formats: ['oscMidiConfig'] })).json()) as ExportAnswer;
    expect((await download(rival, answer)).status).toBe(404);
    expect((await download(demo, answer)).status).toBe(200);
  }, 60_000);

  it('answers 409 "The song has not been analysed yet" for what needs the analysis; the OSC/MIDI map needs none', async () => {
    const created = await demo.fetch('/api/projects', { method: 'POST', headers: json, body: JSON.stringify({ name: 'Unanalysed', originalFile: 'unanalysed.wav', duration: 30 }) });
    expect(created.status).toBe(201);
    const bare = ((await created.json()) as { id: string }).id;
    for (const formats of [['spotifyJson'], ['touchdesigner'], ['resolume'], ['oscMidiConfig', 'spotifyJson']]) {
      const refused = await exportProject(demo, { projectId: bare, formats });
      expect(refused.status).toBe(409);
      expect(((await refused.json()) as { message: string }).message).toBe('The song has not been analysed yet');
    }
    const osc = await exportProject(demo, { projectId: bare, formats: ['oscMidiConfig'] });
    expect([200, 201]).toContain(osc.status);
    const config = OscMidiConfig.parse(await (await download(demo, (await osc.json()) as ExportAnswer)).json());
    expect(config.project).toEqual({ id: bare, name: 'Unanalysed', durationSeconds: 30, bpm: null, beatsPerBar: null });
  }, 60_000);

  it.each<[string, unknown, string]>([
    ['no formats', { projectId: 'p', formats: [] }, 'formats'],
    ['an unknown format', { projectId: 'p', formats: ['ableton'] }, 'formats'],
    ['no projectId', { formats: ['spotifyJson'] }, 'projectId'],
  ])('answers 400 naming the field for %s', async (_case, body, field) => {
    const response = await exportProject(demo, body);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain(field);
  });
});
