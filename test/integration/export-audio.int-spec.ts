import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import mongoose from 'mongoose';
import { CSRF } from '../support/env';
import { downloadExport, exportScratchOf, exportStorage, postExport, removeDownloads, unzip, type ExportAnswer } from '../support/export';
import { ffprobe, mp3HeaderTag, type ProbedExport } from '../support/export-audio';
import { followJob } from '../support/jobs';
import { incompleteUploads, makeClip, objectKeys, ownerIdOf, storedAudioFormat, uploadSeparated, type SeparatedStem } from '../support/media';
import { signIn, type SignedInAgent } from '../support/sign-in';

const json = { ...CSRF, 'content-type': 'application/json' };
const fixture = () => makeClip('mastering-fixture.ogg', 6, { codecArgs: ['-c:a', 'libvorbis'] });
/** The song's name as the user typed it (a slash and accents) and as the files are named. */
const SONG = 'Déjà vu / Live';
const SAFE = 'Déjà vu Live';
const FORMATS = ['wav-24-48', 'wav-16-44', 'aiff-24-48', 'mp3-320', 'flac'] as const;
type Format = (typeof FORMATS)[number];
const TYPES = ['individual', 'full-mix', 'selected'] as const;
const EXTENSION: Record<Format, string> = { 'wav-24-48': 'wav', 'wav-16-44': 'wav', 'aiff-24-48': 'aiff', 'mp3-320': 'mp3', flac: 'flac' };

interface Project {
  id: string;
  name: string;
  bpm: number | null;
  key: string | null;
}
interface Variant {
  available: boolean;
  reason: string | null;
}
interface Options {
  projectId: string;
  variants: Record<'raw' | 'landr' | 'dolby' | 'both', Variant>;
  enhancedStemIds: string[];
  masteredStemTypes: string[];
}
interface ExportRecord {
  id: string;
  status: string;
  progress: number;
  filename: string;
  error?: string;
  expiresAt: string;
}
interface Job {
  id: string;
  status: string;
  progress: number;
}

const messageOf = async (response: Response) => ((await response.json()) as { message: string }).message;

async function exported(agent: SignedInAgent, kind: 'audio' | 'project', body: unknown): Promise<ExportAnswer> {
  const response = await postExport(agent, kind, body);
  if (response.status !== 200) throw new Error(`POST /api/export/${kind} ${JSON.stringify(body)} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as ExportAnswer;
}

/** Seconds of audio a file decodes to (a FLAC whose frames were copied from a stem streamed to storage has no length in its header). */
const decodedSeconds = (path: string): number =>
  execFileSync('ffmpeg', ['-v', 'error', '-i', path, '-map', '0:a:0', '-f', 's16le', '-ac', '1', '-ar', '8000', '-'], { maxBuffer: 64 * 1024 * 1024 }).length / 2 / 8000;

/** What a file of `format` must be: codec, rate, bit depth, channels, constant 320 kbps for mp3, the song's length and tags. */
function expectFormat(path: string, bytes: Buffer, format: Format, stemRate: number, project: Project): void {
  const probe: ProbedExport = ffprobe(path);
  expect(probe.channels).toBe(2);
  expect(Math.abs(decodedSeconds(path) - 6)).toBeLessThan(0.1);
  const bpm = project.bpm!;
  switch (format) {
    case 'wav-24-48':
    case 'wav-16-44': {
      const sixteen = format === 'wav-16-44';
      expect(probe).toMatchObject({ codec: sixteen ? 'pcm_s16le' : 'pcm_s24le', sampleRate: sixteen ? 44_100 : 48_000, bitsPerSample: sixteen ? 16 : 24 });
      expect(probe.tags.title).toBe(SONG);
      // WAV has no tempo or key field: both ride in its comment.
      expect(probe.tags.comment).toContain(`BPM ${Math.round(bpm * 100) / 100}`);
      expect(probe.tags.comment).toContain(`Key ${project.key}`);
      break;
    }
    case 'aiff-24-48':
      expect(probe).toMatchObject({ formatName: 'aiff', codec: 'pcm_s24be', sampleRate: 48_000, bitsPerSample: 24 });
      expect(probe.tags).toMatchObject({ title: SONG, tbpm: String(Math.round(bpm)), tkey: project.key });
      break;
    case 'mp3-320':
      expect(probe).toMatchObject({ codec: 'mp3', bitRate: 320_000, sampleRate: stemRate });
      // LAME writes "Info" in the first frame of a CBR stream, "Xing" for VBR.
      expect(mp3HeaderTag(bytes)).toBe('Info');
      expect(probe.tags).toMatchObject({ title: SONG, tbpm: String(Math.round(bpm)), tkey: project.key });
      break;
    case 'flac':
      expect(probe).toMatchObject({ codec: 'flac', sampleRate: stemRate, bitsPerRawSample: 24, sampleFormat: 's32' });
      expect(probe.tags).toMatchObject({ title: SONG, bpm: String(Math.round(bpm * 100) / 100), key: project.key });
      break;
  }
}

/** The decoded audio's MD5 (ffmpeg's md5 muxer on the samples), so two files with the same samples compare equal. */
const audioMd5 = (path: string) => execFileSync('ffmpeg', ['-v', 'error', '-i', path, '-map', '0:a', '-f', 'md5', '-']).toString().trim();

describe('Audio export through the gateway (the real stack)', () => {
  let demo: SignedInAgent;
  let rival: SignedInAgent;
  let owner: string;
  let project: Project;
  let stems: SeparatedStem[];
  let stemRate: number;
  let connection: mongoose.Connection;
  const stem = (type: string) => stems.find((candidate) => candidate.type === type)!;
  const exportsPrefix = () => `users/${owner}/projects/${project.id}/exports/`;
  const jobDone = (id: string) => followJob<Job>(demo, id, (job) => job.status !== 'processing', 120_000).then(({ job }) => job);

  beforeAll(async () => {
    [demo, rival] = await Promise.all([signIn('demo', 'demo'), signIn('rival', 'rival')]);
    owner = await ownerIdOf(demo);
    const separated = await uploadSeparated(demo, fixture());
    stems = separated.stems;
    const renamed = await demo.fetch(`/api/projects/${separated.projectId}`, { method: 'PATCH', headers: json, body: JSON.stringify({ name: SONG }) });
    expect(renamed.status).toBe(200);
    project = (await (await demo.fetch(`/api/projects/${separated.projectId}`)).json()) as Project;
    stemRate = (await storedAudioFormat(demo, stems[0]!.url)).sampleRate;
    connection = await mongoose.createConnection(process.env.MONGODB_URI!).asPromise();
  }, 90_000);

  afterAll(async () => {
    await connection?.close();
    removeDownloads();
  });

  it('knows the song\'s tempo and key (the tags the files carry)', () => {
    expect(project).toMatchObject({ name: SONG, bpm: expect.any(Number), key: expect.any(String) });
  });

  describe.each(FORMATS)('%s', (format) => {
    const extension = EXTENSION[format];

    it.each(TYPES)('%s: the stored file (or each file of its zip) is the format, tagged with the song', async (exportType) => {
      const selected = exportType === 'selected' ? [stem('bass').id, stem('vocals').id] : [];
      const answer = await exported(demo, 'audio', { projectId: project.id, exportType, format, mastering: 'raw', stems: selected });
      expect(answer).toMatchObject({ id: expect.any(String), downloadUrl: `/api/exports/${answer.id}/download`, expiresAt: expect.any(String) });
      // Expiry about EXPORT_TTL_MINUTES (24 h by default) after completion.
      expect(Math.abs(Date.parse(answer.expiresAt) - Date.now() - 24 * 3600_000)).toBeLessThan(120_000);
      const download = await downloadExport(demo, answer);
      expect(decodeURIComponent(download.headers.get('content-disposition')!.split("filename*=UTF-8''")[1]!)).toBe(answer.filename);
      if (exportType === 'full-mix') {
        expect(answer.filename).toBe(`${SAFE} - full mix.${extension}`);
        expect(download.headers.get('content-type')).toBe({ wav: 'audio/wav', aiff: 'audio/aiff', mp3: 'audio/mpeg', flac: 'audio/flac' }[extension]);
        expectFormat(download.path, download.bytes, format, stemRate, project);
        return;
      }
      expect(answer.filename).toBe(exportType === 'individual' ? `${SAFE} - stems.zip` : `${SAFE} - selected stems.zip`);
      expect(download.headers.get('content-type')).toBe('application/zip');
      const zip = unzip(download.path, download.dir);
      const types = exportType === 'individual' ? ['vocals', 'drums', 'bass', 'other'] : ['bass', 'vocals'];
      expect(zip.names).toEqual(types.map((type) => `${SAFE} - ${type}.${extension}`));
      // Stored, not deflated: audio does not compress and storing keeps the zip fast.
      expect(zip.methods).toEqual(types.map(() => 'Stored'));
      for (const name of zip.names) {
        const path = zip.pathOf(name);
        expectFormat(path, readFileSync(path), format, stemRate, project);
      }
    }, 60_000);
  });

  it('serves a download with Range (206, 416), HEAD without a body, and Content-Disposition attachment with an RFC 5987 name', async () => {
    const answer = await exported(demo, 'audio', { projectId: project.id, exportType: 'full-mix', format: 'wav-16-44' });
    const whole = await downloadExport(demo, answer);
    expect(whole.headers.get('content-disposition')).toBe(
      `attachment; filename="Deja vu Live - full mix.wav"; filename*=UTF-8''D%C3%A9j%C3%A0%20vu%20Live%20-%20full%20mix.wav`,
    );
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    const ranged = await demo.fetch(answer.downloadUrl, { headers: { range: 'bytes=100-199' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 100-199/${whole.bytes.length}`);
    expect(Buffer.from(await ranged.arrayBuffer())).toEqual(whole.bytes.subarray(100, 200));
    const tail = await demo.fetch(answer.downloadUrl, { headers: { range: 'bytes=-16' } });
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(whole.bytes.subarray(whole.bytes.length - 16));
    expect((await demo.fetch(answer.downloadUrl, { headers: { range: `bytes=${whole.bytes.length + 10}-` } })).status).toBe(416);
    const head = await demo.fetch(answer.downloadUrl, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(whole.bytes.length));
    expect(head.headers.get('content-disposition')).toMatch(/^attachment; /);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    // The file is stored once, under the export's own folder, with a plain-ASCII key (the song's name is the download's).
    expect(await objectKeys(`${exportsPrefix()}${answer.id}/`)).toEqual([`${exportsPrefix()}${answer.id}/export.wav`]);
    const status = (await (await demo.fetch(`/api/exports/${answer.id}`)).json()) as ExportRecord;
    expect(status).toMatchObject({ id: answer.id, status: 'completed', progress: 100, filename: answer.filename, expiresAt: answer.expiresAt });
  }, 60_000);

  it('exports project data: one file as itself, several as one zip', async () => {
    const single = await exported(demo, 'project', { projectId: project.id, formats: ['spotifyJson'] });
    expect(single.filename.startsWith(`${SAFE} - `)).toBe(true);
    const json = await downloadExport(demo, single);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(JSON.parse(json.bytes.toString('utf8'))).toEqual(expect.any(Object));
    const kits = await exported(demo, 'project', { projectId: project.id, formats: ['touchdesigner', 'resolume', 'touchdesigner'] });
    expect(kits.filename).toBe(`${SAFE} - project data.zip`);
    const zip = await downloadExport(demo, kits);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    const names = unzip(zip.path, zip.dir).names;
    expect(names.length).toBeGreaterThan(2);
    expect(names.some((name) => /touchdesigner/i.test(name))).toBe(true);
    expect(names.some((name) => /resolume/i.test(name))).toBe(true);
  }, 90_000);

  it.each<[string, 'audio' | 'project', Record<string, unknown>, string]>([
    ['no projectId', 'audio', { exportType: 'full-mix', format: 'flac' }, 'projectId: Required'],
    ['an unknown export type', 'audio', { projectId: 'p', exportType: 'everything', format: 'flac' }, 'exportType'],
    ['an unknown format', 'audio', { projectId: 'p', exportType: 'full-mix', format: 'ogg' }, 'format'],
    ['an unknown mastering', 'audio', { projectId: 'p', exportType: 'full-mix', format: 'flac', mastering: 'loud' }, 'mastering'],
    ['selected without stems', 'audio', { projectId: 'p', exportType: 'selected', format: 'flac' }, 'stems: Choose at least one stem'],
    ['stems that are not a list', 'audio', { projectId: 'p', exportType: 'selected', format: 'flac', stems: 'vocals' }, 'stems'],
    ['an unknown field', 'audio', { projectId: 'p', exportType: 'full-mix', format: 'flac', normalize: true }, 'Unrecognized key'],
    ['no formats', 'project', { projectId: 'p', formats: [] }, 'formats: Choose at least one format'],
    ['an unknown project format', 'project', { projectId: 'p', formats: ['ableton'] }, 'formats.0'],
  ])('answers 400 naming the field for %s', async (_case, kind, body, field) => {
    const response = await postExport(demo, kind, body);
    expect(response.status).toBe(400);
    expect(await messageOf(response)).toContain(field);
  });

  it('answers 400 naming a listed stem that is not this project\'s', async () => {
    const response = await postExport(demo, 'audio', { projectId: project.id, exportType: 'selected', format: 'flac', stems: [stem('drums').id, 'not-a-stem'] });
    expect(response.status).toBe(400);
    expect(await messageOf(response)).toBe('stems.1: Not a stem of this project');
  });

  it('keeps another user out: their project, its export options, an export\'s status and its download are 404', async () => {
    const answer = await exported(demo, 'audio', { projectId: project.id, exportType: 'full-mix', format: 'flac' });
    const audio = await postExport(rival, 'audio', { projectId: project.id, exportType: 'full-mix', format: 'flac' });
    expect(audio.status).toBe(404);
    expect(await messageOf(audio)).toBe('Project not found');
    expect((await postExport(rival, 'audio', { projectId: project.id, exportType: 'selected', format: 'flac', stems: [stem('vocals').id] })).status).toBe(404);
    expect((await postExport(rival, 'project', { projectId: project.id, formats: ['spotifyJson'] })).status).toBe(404);
    expect((await rival.fetch(`/api/projects/${project.id}/export-options`)).status).toBe(404);
    expect((await rival.fetch(`/api/exports/${answer.id}`)).status).toBe(404);
    expect((await rival.fetch(answer.downloadUrl)).status).toBe(404);
    expect((await rival.fetch(answer.downloadUrl, { method: 'HEAD' })).status).toBe(404);
    expect((await rival.fetch(answer.downloadUrl, { headers: { range: 'bytes=0-9' } })).status).toBe(404);
    // ...while the owner still has it, and unknown ones are 404 for everyone.
    expect((await demo.fetch(answer.downloadUrl)).status).toBe(200);
    expect((await postExport(demo, 'audio', { projectId: 'no-such-project', exportType: 'full-mix', format: 'flac' })).status).toBe(404);
    expect((await demo.fetch('/api/exports/no-such-export')).status).toBe(404);
    expect((await demo.fetch('/api/exports/no-such-export/download')).status).toBe(404);
  }, 60_000);

  it('answers 409 "Stems are not ready yet" for a project without stems, offers no variant there, and stores nothing', async () => {
    const empty = (await (
      await demo.fetch('/api/projects', { method: 'POST', headers: json, body: JSON.stringify({ name: 'Empty', originalFile: 'empty.wav', duration: 10 }) })
    ).json()) as { id: string };
    for (const mastering of ['raw', 'landr', 'dolby', 'both']) {
      const response = await postExport(demo, 'audio', { projectId: empty.id, exportType: 'full-mix', format: 'wav-24-48', mastering });
      expect(response.status).toBe(409);
      expect(await messageOf(response)).toBe('Stems are not ready yet');
    }
    const options = (await (await demo.fetch(`/api/projects/${empty.id}/export-options`)).json()) as Options;
    expect(Object.values(options.variants)).toEqual(Array(4).fill({ available: false, reason: 'Stems are not ready yet' }));
    expect(await connection.collection('exports').countDocuments({ projectId: empty.id })).toBe(0);
    expect(await objectKeys(`users/${owner}/projects/${empty.id}/`)).toEqual([]);
  });

  describe('mastered and enhanced variants', () => {
    const refused = async (body: Record<string, unknown>) => {
      const response = await postExport(demo, 'audio', { projectId: project.id, format: 'flac', ...body });
      return { status: response.status, message: await messageOf(response) };
    };
    const startJob = async (path: string, parameters: unknown) => {
      const response = await demo.fetch(`/api/jobs/${path}`, { method: 'POST', headers: json, body: JSON.stringify({ projectId: project.id, parameters }) });
      expect(response.status).toBe(202);
      const job = await jobDone(((await response.json()) as Job).id);
      expect(job.status).toBe('completed');
      return job;
    };
    const options = async () => (await (await demo.fetch(`/api/projects/${project.id}/export-options`)).json()) as Options;
    let fullMixJob: Job;

    it('before any master or enhancement: only raw is offered, and asking for the others is a 409 saying what to run first, with nothing stored', async () => {
      const exportDocs = await connection.collection('exports').countDocuments({ projectId: project.id });
      const keys = await objectKeys(exportsPrefix());
      expect(await options()).toEqual({
        projectId: project.id,
        variants: {
          raw: { available: true, reason: null },
          landr: { available: false, reason: 'No mastered mix yet — run AI Mastering first' },
          dolby: { available: false, reason: 'No enhanced stems yet — run Enhance stems in AI Mastering first' },
          both: { available: false, reason: 'No mastered mix yet — run AI Mastering first; No enhanced stems yet — run Enhance stems in AI Mastering first' },
        },
        enhancedStemIds: [],
        masteredStemTypes: [],
      });
      expect(await refused({ exportType: 'full-mix', mastering: 'landr' })).toEqual({ status: 409, message: 'No mastered mix yet — run AI Mastering first' });
      expect(await refused({ exportType: 'individual', mastering: 'landr' })).toEqual({ status: 409, message: 'No mastered stems yet — run AI Mastering with Per stem first' });
      expect(await refused({ exportType: 'individual', mastering: 'dolby' })).toEqual({ status: 409, message: 'No enhanced stems yet — run Enhance stems in AI Mastering first' });
      expect((await refused({ exportType: 'full-mix', mastering: 'both' })).message).toBe(
        'No mastered mix yet — run AI Mastering first; No enhanced stems yet — run Enhance stems in AI Mastering first',
      );
      // A refused export leaves no document and no object.
      expect(await connection.collection('exports').countDocuments({ projectId: project.id })).toBe(exportDocs);
      expect(await objectKeys(exportsPrefix())).toEqual(keys);
    });

    it('landr after a full-mix master: the full mix is the master itself (same samples); stems still need a per-stem master', async () => {
      fullMixJob = await startJob('landr-master', { masterType: 'full-mix', style: 'balanced' });
      expect((await options()).variants.landr).toEqual({ available: true, reason: null });
      const answer = await exported(demo, 'audio', { projectId: project.id, exportType: 'full-mix', format: 'flac', mastering: 'landr' });
      expect(answer.filename).toBe(`${SAFE} - full mix (mastered).flac`);
      const download = await downloadExport(demo, answer);
      const master = await demo.fetch(`/api/jobs/${fullMixJob.id}/outputs/master.flac`);
      const masterPath = join(download.dir, 'master.flac');
      writeFileSync(masterPath, Buffer.from(await master.arrayBuffer()));
      expect(audioMd5(download.path)).toBe(audioMd5(masterPath));
      expect(audioMd5(download.path)).not.toBe(audioMd5((await downloadExport(demo, await exported(demo, 'audio', { projectId: project.id, exportType: 'full-mix', format: 'flac' }))).path));
      expect(ffprobe(download.path).tags).toMatchObject({ title: SONG });
      expect(await refused({ exportType: 'selected', mastering: 'landr', stems: [stem('vocals').id] })).toEqual({
        status: 409,
        message: 'No mastered stems yet — run AI Mastering with Per stem first',
      });
    }, 150_000);

    it('landr after a per-stem master: each stem as mastered, and the newest master\'s mix for the full mix', async () => {
      const perStemJob = await startJob('landr-master', { masterType: 'per-stem', style: 'warm' });
      expect((await options()).masteredStemTypes).toEqual(['vocals', 'drums', 'bass', 'other']);
      const individual = await exported(demo, 'audio', { projectId: project.id, exportType: 'individual', format: 'wav-24-48', mastering: 'landr' });
      expect(individual.filename).toBe(`${SAFE} - stems (mastered).zip`);
      const zipped = await downloadExport(demo, individual);
      const zip = unzip(zipped.path, zipped.dir);
      expect(zip.names).toEqual(['vocals', 'drums', 'bass', 'other'].map((type) => `${SAFE} - ${type} (mastered).wav`));
      for (const name of zip.names) expectFormat(zip.pathOf(name), readFileSync(zip.pathOf(name)), 'wav-24-48', stemRate, project);
      // The newest master is now the per-stem one: the mastered full mix is its mix.flac, sample for sample.
      const fullMix = await downloadExport(demo, await exported(demo, 'audio', { projectId: project.id, exportType: 'full-mix', format: 'flac', mastering: 'landr' }));
      const mixPath = join(fullMix.dir, 'mix.flac');
      writeFileSync(mixPath, Buffer.from(await (await demo.fetch(`/api/jobs/${perStemJob.id}/outputs/mix.flac`)).arrayBuffer()));
      expect(audioMd5(fullMix.path)).toBe(audioMd5(mixPath));
      const one = await exported(demo, 'audio', { projectId: project.id, exportType: 'selected', format: 'mp3-320', mastering: 'landr', stems: [stem('bass').id] });
      expect(one.filename).toBe(`${SAFE} - bass (mastered).mp3`);
      const mp3 = await downloadExport(demo, one);
      expectFormat(mp3.path, mp3.bytes, 'mp3-320', stemRate, project);
    }, 150_000);

    it('dolby after enhancing the vocals: the enhanced stems, the mix with them, 409 naming a stem without one; both puts the two variants in one zip', async () => {
      await startJob('dolby-enhance', {
        enhancements: { noiseReduction: true, loudnessNormalization: true },
        targetStems: { vocals: true },
      });
      const offered = await options();
      expect(Object.values(offered.variants).every((variant) => variant.available)).toBe(true);
      expect(offered.enhancedStemIds).toEqual([stem('vocals').id]);

      // Only the vocals have an enhanced version: one file, not a zip.
      const individual = await exported(demo, 'audio', { projectId: project.id, exportType: 'individual', format: 'aiff-24-48', mastering: 'dolby' });
      expect(individual.filename).toBe(`${SAFE} - vocals (enhanced).aiff`);
      const aiff = await downloadExport(demo, individual);
      expectFormat(aiff.path, aiff.bytes, 'aiff-24-48', stemRate, project);
      const mix = await exported(demo, 'audio', { projectId: project.id, exportType: 'full-mix', format: 'wav-24-48', mastering: 'dolby' });
      expect(mix.filename).toBe(`${SAFE} - full mix (enhanced).wav`);
      expect(await refused({ exportType: 'selected', mastering: 'dolby', stems: [stem('vocals').id, stem('drums').id] })).toEqual({
        status: 409,
        message: 'The drums stem has no enhanced version yet — run Enhance stems on it first',
      });

      const both = await exported(demo, 'audio', { projectId: project.id, exportType: 'selected', format: 'flac', mastering: 'both', stems: [stem('vocals').id] });
      expect(both.filename).toBe(`${SAFE} - selected stems (mastered and enhanced).zip`);
      const zipped = await downloadExport(demo, both);
      const zip = unzip(zipped.path, zipped.dir);
      expect(zip.names).toEqual([`${SAFE} - vocals (mastered).flac`, `${SAFE} - vocals (enhanced).flac`]);
      expect(audioMd5(zip.pathOf(zip.names[0]!))).not.toBe(audioMd5(zip.pathOf(zip.names[1]!)));
      const fullBoth = await exported(demo, 'audio', { projectId: project.id, exportType: 'full-mix', format: 'mp3-320', mastering: 'both' });
      const fullZip = await downloadExport(demo, fullBoth);
      expect(unzip(fullZip.path, fullZip.dir).names).toEqual([`${SAFE} - full mix (mastered).mp3`, `${SAFE} - full mix (enhanced).mp3`]);
    }, 150_000);
  });

  it('an expired download answers 410 and the sweep removes its file', async () => {
    const answer = await exported(demo, 'audio', { projectId: project.id, exportType: 'full-mix', format: 'mp3-320' });
    const prefix = `${exportsPrefix()}${answer.id}/`;
    expect(await objectKeys(prefix)).toHaveLength(1);
    await connection.collection('exports').updateOne({ _id: answer.id as never }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    const gone = await demo.fetch(answer.downloadUrl);
    expect(gone.status).toBe(410);
    expect(await messageOf(gone)).toBe('This download has expired — export again');
    // The test stack sweeps every 2 s; a pass removes the file, then marks the record purged (two steps, so wait for both).
    const purged = async () => (await objectKeys(prefix)).length === 0 && (await connection.collection('exports').findOne({ _id: answer.id as never }))?.purgedAt instanceof Date;
    const until = Date.now() + 15_000;
    while (!(await purged()) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await objectKeys(prefix)).toEqual([]);
    expect(await connection.collection('exports').findOne({ _id: answer.id as never })).toMatchObject({ purgedAt: expect.any(Date) });
    expect((await demo.fetch(answer.downloadUrl)).status).toBe(410);
    expect((await rival.fetch(answer.downloadUrl)).status).toBe(404);

    // The sweep keeps running: an export that expires later is removed by a later pass.
    const later = await exported(demo, 'audio', { projectId: project.id, exportType: 'selected', format: 'flac', stems: [stem('other').id] });
    const laterPrefix = `${exportsPrefix()}${later.id}/`;
    await new Promise((resolve) => setTimeout(resolve, 4500));
    expect(await objectKeys(laterPrefix)).toHaveLength(1);
    expect((await demo.fetch(later.downloadUrl)).status).toBe(200);
    await connection.collection('exports').updateOne({ _id: later.id as never }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    const laterUntil = Date.now() + 15_000;
    while ((await objectKeys(laterPrefix)).length > 0 && Date.now() < laterUntil) await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await objectKeys(laterPrefix)).toEqual([]);
  }, 60_000);

  it('a song named with 100 CJK characters (300 bytes, over a file name\'s 255) exports its stems: named after its first 150 bytes, a bidi override dropped', async () => {
    // Every audio export of such a song used to fail (its scratch files were named after it: ENAMETOOLONG).
    const long = `\u202E${'日本語の歌'.repeat(20)}`;
    const capped = '日本語の歌'.repeat(10);
    expect((await demo.fetch(`/api/projects/${project.id}`, { method: 'PATCH', headers: json, body: JSON.stringify({ name: long }) })).status).toBe(200);
    try {
      const answer = await exported(demo, 'audio', { projectId: project.id, exportType: 'individual', format: 'flac' });
      expect(answer.filename).toBe(`${capped} - stems.zip`);
      expect(Buffer.byteLength(answer.filename, 'utf8')).toBeLessThanOrEqual(255);
      const download = await downloadExport(demo, answer);
      const zip = unzip(download.path, download.dir);
      expect(zip.names).toEqual(['vocals', 'drums', 'bass', 'other'].map((type) => `${capped} - ${type}.flac`));
      for (const name of zip.names) expect(Math.abs(decodedSeconds(zip.pathOf(name)) - 6)).toBeLessThan(0.1);
      const kits = await exported(demo, 'project', { projectId: project.id, formats: ['resolume'] });
      const kit = await downloadExport(demo, kits);
      expect(unzip(kit.path, kit.dir).names).toEqual(expect.arrayContaining(['vocals', 'drums', 'bass', 'other'].map((type) => `resolume/clips/${capped} - ${type}.wav`)));
    } finally {
      await demo.fetch(`/api/projects/${project.id}`, { method: 'PATCH', headers: json, body: JSON.stringify({ name: SONG }) });
    }
  }, 120_000);

  it('a failed export answers 500 "Failed to export audio files", leaves no objects and no scratch folder', async () => {
    // A stored stem that is no longer audio: every attempt fails while decoding it.
    const bass = stem('bass') as SeparatedStem & { engine: string };
    const stemKey = `users/${owner}/projects/${project.id}/stems/${bass.engine}/bass.flac`;
    expect(await objectKeys(stemKey)).toEqual([stemKey]);
    await exportStorage.putBuffer(stemKey, Buffer.from('this is not audio'), 'audio/flac');
    const before = await objectKeys(exportsPrefix());
    const response = await postExport(demo, 'audio', { projectId: project.id, exportType: 'individual', format: 'flac' });
    expect(response.status).toBe(500);
    expect(await messageOf(response)).toBe('Failed to export audio files');
    const failed = await connection.collection('exports').find({ projectId: project.id, status: 'failed' }).toArray();
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ error: 'Failed to export audio files', attempts: 3 });
    expect(await objectKeys(`${exportsPrefix()}${failed[0]!._id}/`)).toEqual([]);
    expect(await objectKeys(exportsPrefix())).toEqual(before);
    expect(await incompleteUploads(exportsPrefix())).toEqual([]);
    const pid = Number(readFileSync(join(process.env.STEMDECK_DATA_DIR ?? '.data/test', 'pids', 'export.pid'), 'utf8'));
    expect(exportScratchOf(pid)).toEqual([]);
    expect(((await (await demo.fetch(`/api/exports/${failed[0]!._id}`)).json()) as ExportRecord)).toMatchObject({ status: 'failed', error: 'Failed to export audio files' });
    expect((await demo.fetch(`/api/exports/${failed[0]!._id}/download`)).status).toBe(409);
  }, 120_000);

  it('removes a deleted project\'s exports: their records and files', async () => {
    const ids = (await connection.collection('exports').find({ projectId: project.id }).toArray()).map((doc) => String(doc._id));
    expect(ids.length).toBeGreaterThan(10);
    expect((await objectKeys(exportsPrefix())).length).toBeGreaterThan(10);
    expect((await demo.fetch(`/api/projects/${project.id}`, { method: 'DELETE', headers: CSRF })).status).toBe(204);
    const until = Date.now() + 10_000;
    while ((await connection.collection('exports').countDocuments({ projectId: project.id })) > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await connection.collection('exports').countDocuments({ projectId: project.id })).toBe(0);
    expect((await demo.fetch(`/api/exports/${ids[0]}`)).status).toBe(404);
    expect(await objectKeys(exportsPrefix())).toEqual([]);
  }, 30_000);
});

describe('An export survives the export service being killed mid-export', () => {
  it('is delivered again, built again from the start, and the waiting request still gets its file (one object, the crash\'s scratch folder swept)', async () => {
    const demo = await signIn('demo', 'demo');
    const owner = await ownerIdOf(demo);
    const { projectId } = await uploadSeparated(demo, makeClip('mastering-long.ogg', 90, { codecArgs: ['-c:a', 'libvorbis'] }));
    const connection = await mongoose.createConnection(process.env.MONGODB_URI!).asPromise();
    const pidFile = join(process.env.STEMDECK_DATA_DIR ?? '.data/test', 'pids', 'export.pid');
    try {
      const pending = postExport(demo, 'audio', { projectId, exportType: 'individual', format: 'mp3-320' });
      // Kill it once the export has stored some real progress (it is rendering).
      let running: { _id: unknown; progress: number } | null = null;
      const until = Date.now() + 60_000;
      while (!running && Date.now() < until) {
        running = (await connection.collection('exports').findOne({ projectId, status: 'processing', progress: { $gt: 0 } })) as typeof running;
        if (!running) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(running).not.toBeNull();
      const killedPid = Number(readFileSync(pidFile, 'utf8'));
      expect(exportScratchOf(killedPid)).toHaveLength(1);
      process.kill(-killedPid, 'SIGKILL');

      const response = await pending;
      expect(response.status).toBe(200);
      const answer = (await response.json()) as ExportAnswer;
      expect(answer.id).toBe(String(running!._id));
      expect(Number(readFileSync(pidFile, 'utf8'))).not.toBe(killedPid);
      expect(await connection.collection('exports').findOne({ _id: answer.id as never })).toMatchObject({ status: 'completed', attempts: 2 });
      const prefix = `users/${owner}/projects/${projectId}/exports/`;
      expect(await objectKeys(prefix)).toEqual([`${prefix}${answer.id}/export.zip`]);
      const download = await downloadExport(demo, answer);
      const zip = unzip(download.path, download.dir);
      expect(zip.names).toHaveLength(4);
      for (const name of zip.names) expect(Math.abs(decodedSeconds(zip.pathOf(name)) - 90)).toBeLessThan(0.2);
      // The killed process's scratch folder is swept by the restarted service.
      expect(exportScratchOf(killedPid)).toEqual([]);
    } finally {
      await connection.close();
      removeDownloads();
    }
  }, 240_000);
});
