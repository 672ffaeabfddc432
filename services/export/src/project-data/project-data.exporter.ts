import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { STEM_TYPES, type Project, type ProjectExportFormat, type StemRecord } from '@stemdeck/proto';
import { PROJECT_NOT_FOUND } from '../exports/create-audio-export.usecase';
import { ExportRefused } from '../exports/export-refused';
import { STEMS_NOT_READY } from '../exports/export-plan';
import { barSeconds, beatsCsv, beatsOf, type BeatGrid } from './beat-grid';
import { ENVELOPE_FPS, envelopesCsv, mixPower, type StemEnvelope } from './envelopes';
import { safeSongName } from '../exports/file-names';
import type { ProjectDataFile, ProjectDataWriter } from './project-data.port';
import type { ProjectAnalysis, ProjectMedia } from './project-media';
import { resolumeConfig, resolumeReadme, type ResolumeClip } from './resolume-kit';
import { barPower, detectSections, sectionsCsv } from './sections';
import { spotifyAudioFeatures } from './spotify-audio-features';
import type { StemAudio } from './stem-audio';
import { stemGain } from './stem-gain';
import { oscMidiConfig } from './studio-control-messages';
import { touchDesignerOscMapping, touchDesignerReadme } from './touchdesigner-kit';

/** The exports' own words for a project that is not the owner's and for stems still separating. */
export { PROJECT_NOT_FOUND, STEMS_NOT_READY };
export const NOT_ANALYSED = 'The song has not been analysed yet';

/** What each format reads besides the project, and its share of the work (decoding stems outweighs writing JSON). */
const FORMAT_NEEDS: Readonly<Record<ProjectExportFormat, { analysis: boolean; stems: boolean; weight: number }>> = {
  spotifyJson: { analysis: true, stems: false, weight: 1 },
  oscMidiConfig: { analysis: false, stems: false, weight: 1 },
  touchdesigner: { analysis: true, stems: true, weight: 20 },
  resolume: { analysis: true, stems: true, weight: 20 },
};

interface ProjectFacts {
  project: Project;
  analysis: ProjectAnalysis | null;
  /** In the studio's order: vocals, drums, bass, other. */
  stems: StemRecord[];
}

/** A project with its analysis: the song's length and the beat grid the studio plays on. */
interface AnalysedFacts extends ProjectFacts {
  analysis: ProjectAnalysis;
  durationSeconds: number;
  grid: BeatGrid;
}

type Progress = (fraction: number) => void;

/**
 * Builds project-data exports from media's project, analysis and stems (ProjectMedia) and the stored stems'
 * audio (StemAudio). `check` refuses what cannot be made (404 not the owner's, 409 analysis or stems
 * missing); `write` checks again — the project may have changed while the export waited — and writes each
 * asked-for format's files under `dir`.
 */
export class ProjectDataExporter implements ProjectDataWriter {
  constructor(
    private readonly media: ProjectMedia,
    private readonly audio: StemAudio,
  ) {}

  async check(ownerId: string, projectId: string, formats: readonly ProjectExportFormat[]): Promise<void> {
    await this.facts(ownerId, projectId, formats);
  }

  async write(ownerId: string, projectId: string, formats: readonly ProjectExportFormat[], dir: string, onProgress?: Progress): Promise<ProjectDataFile[]> {
    const facts = await this.facts(ownerId, projectId, formats);
    const total = formats.reduce((sum, format) => sum + FORMAT_NEEDS[format].weight, 0);
    let done = 0;
    const files: ProjectDataFile[] = [];
    for (const format of formats) {
      const weight = FORMAT_NEEDS[format].weight;
      const step: Progress = (fraction) => onProgress?.(Math.min(1, (done + weight * Math.min(1, Math.max(0, fraction))) / total));
      files.push(...(await this.writeFormat(format, ownerId, facts, dir, step)));
      done += weight;
      onProgress?.(done / total);
    }
    return files;
  }

  private writeFormat(format: ProjectExportFormat, ownerId: string, facts: ProjectFacts, dir: string, step: Progress): Promise<ProjectDataFile[]> {
    switch (format) {
      case 'spotifyJson':
        return this.spotifyJson(analysed(facts), dir);
      case 'oscMidiConfig':
        return this.oscMidiConfig(facts, dir);
      case 'touchdesigner':
        return this.touchDesigner(ownerId, analysed(facts), dir, step);
      case 'resolume':
        return this.resolume(ownerId, analysed(facts), dir, step);
    }
  }

  private async facts(ownerId: string, projectId: string, formats: readonly ProjectExportFormat[]): Promise<ProjectFacts> {
    const project = await this.media.project(ownerId, projectId);
    if (!project) throw new ExportRefused(404, PROJECT_NOT_FOUND);
    const needs = formats.map((format) => FORMAT_NEEDS[format]);
    // Read even where no format needs it: the OSC/MIDI map names the beats per bar when it is known.
    const analysis = await this.media.analysis(ownerId, projectId);
    if (needs.some((need) => need.analysis) && !analysis) throw new ExportRefused(409, NOT_ANALYSED);
    const stems = needs.some((need) => need.stems) ? await this.media.stems(ownerId, projectId) : [];
    if (needs.some((need) => need.stems) && stems.length === 0) throw new ExportRefused(409, STEMS_NOT_READY);
    stems.sort((a, b) => STEM_TYPES.indexOf(a.type) - STEM_TYPES.indexOf(b.type));
    return { project, analysis, stems };
  }

  private async spotifyJson(facts: AnalysedFacts, dir: string): Promise<ProjectDataFile[]> {
    return [await writeText(dir, 'analysis.json', json(spotifyAudioFeatures(facts.project.id, facts.analysis.spotifyFeatures)))];
  }

  private async oscMidiConfig(facts: ProjectFacts, dir: string): Promise<ProjectDataFile[]> {
    const { project, analysis } = facts;
    const config = oscMidiConfig({
      id: project.id,
      name: project.name,
      durationSeconds: project.duration,
      bpm: project.bpm ?? analysis?.spotifyFeatures.tempo ?? null,
      beatsPerBar: analysis?.spotifyFeatures.time_signature ?? null,
    });
    return [await writeText(dir, 'osc-midi-config.json', json(config))];
  }

  private async touchDesigner(ownerId: string, facts: AnalysedFacts, dir: string, step: Progress): Promise<ProjectDataFile[]> {
    const { stems, grid, durationSeconds } = facts;
    const anySoloed = stems.some((stem) => stem.soloed);
    const envelopes: StemEnvelope[] = [];
    for (const [index, stem] of stems.entries()) {
      const objectKey = await this.media.stemObjectKey(ownerId, stem.id);
      const power = await this.audio.framePower(objectKey, ENVELOPE_FPS, {
        expectedSeconds: durationSeconds,
        onProgress: (fraction) => step((0.95 * (index + fraction)) / stems.length),
      });
      envelopes.push({ type: stem.type, power, gain: stemGain(stem, anySoloed) });
    }
    // The song's structure comes from the stems as recorded, whatever the mixer does to them.
    const sections = detectSections(barPower(mixPower(envelopes), ENVELOPE_FPS, barSeconds(grid)));
    const kit = { songName: facts.project.name, durationSeconds, bpm: grid.bpm, beatsPerBar: grid.beatsPerBar, fps: ENVELOPE_FPS, stems: stems.map((stem) => stem.type) };
    return [
      await writeText(dir, 'touchdesigner/beats.csv', beatsCsv(beatsOf(grid, durationSeconds))),
      await writeText(dir, 'touchdesigner/sections.csv', sectionsCsv(sections, barSeconds(grid), durationSeconds)),
      await writeText(dir, 'touchdesigner/envelopes.csv', envelopesCsv(envelopes, ENVELOPE_FPS)),
      await writeText(dir, 'touchdesigner/osc-mapping.json', json(touchDesignerOscMapping(kit))),
      await writeText(dir, 'touchdesigner/README.txt', touchDesignerReadme(kit)),
    ];
  }

  private async resolume(ownerId: string, facts: AnalysedFacts, dir: string, step: Progress): Promise<ProjectDataFile[]> {
    const song = safeSongName(facts.project.name);
    const files: ProjectDataFile[] = [];
    const clips: ResolumeClip[] = [];
    for (const [index, stem] of facts.stems.entries()) {
      const clip = `clips/${song} - ${stem.type}.wav`;
      const name = `resolume/${clip}`;
      // On disk by its index alone: the song's name (up to 255 bytes with the rest) goes only into the zip entry.
      const path = join(dir, 'resolume', 'clips', `${index}.wav`);
      await mkdir(dirname(path), { recursive: true });
      await this.audio.writeWav(await this.media.stemObjectKey(ownerId, stem.id), path, `${facts.project.name} - ${stem.type}`);
      files.push({ name, path });
      clips.push({ stem: stem.type, file: clip, volumeDb: stem.volume, muted: stem.muted, soloed: stem.soloed });
      step((index + 1) / facts.stems.length);
    }
    const kit = { songName: facts.project.name, durationSeconds: facts.durationSeconds, bpm: facts.grid.bpm, beatsPerBar: facts.grid.beatsPerBar, clips };
    return [
      await writeText(dir, 'resolume/resolume.json', json(resolumeConfig(kit))),
      ...files,
      await writeText(dir, 'resolume/README.txt', resolumeReadme(kit)),
    ];
  }
}

/** The song's length and beat grid: the project's tempo (what the studio plays its beats at), else the analysis's. */
function analysed(facts: ProjectFacts): AnalysedFacts {
  const analysis = facts.analysis;
  // facts() refused every format that needs the analysis when it is missing.
  if (!analysis) throw new ExportRefused(409, NOT_ANALYSED);
  const features = analysis.spotifyFeatures;
  const durationSeconds = facts.project.duration > 0 ? facts.project.duration : features.duration_ms / 1000;
  const beatsPerBar = Math.min(7, Math.max(3, Math.round(features.time_signature) || 4));
  return { ...facts, analysis, durationSeconds, grid: { bpm: facts.project.bpm ?? features.tempo, beatsPerBar, firstBeatSeconds: 0 } };
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

async function writeText(dir: string, name: string, text: string): Promise<ProjectDataFile> {
  const path = join(dir, name);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text, 'utf8');
  return { name, path };
}
