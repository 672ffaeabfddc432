import { Inject, Injectable, Logger } from '@nestjs/common';
import { StreamingAnalysis, type StereoAudio } from '@stemdeck/audio';
import { inSpan, SPAN_ATTRIBUTES } from '@stemdeck/platform';
import { extractedAudioKey } from '@stemdeck/proto';
import {
  SEPARATION_EVENTS,
  SEPARATION_MEDIA_TOOLS,
  SEPARATION_PROJECTS,
  STEM_STORAGE,
  type DecodedSource,
  type IngestSteps,
  type ProjectToSeparate,
  type SeparationEvents,
  type SeparationMediaTools,
  type SeparationProjects,
  type StemStorage,
} from '../separation/separation.ports';

/**
 * An upload's derived data, made by its first (durable) job rather than while the upload waits: the
 * audio track of a video, and the analysis of the whole recording. Both are idempotent — a redelivered
 * job extracts to the same key and analyses again only if no analysis was stored — and both belong to
 * the project, so deleting the project removes them with everything else under its prefix.
 */
@Injectable()
export class IngestJobSteps implements IngestSteps {
  private readonly logger = new Logger(IngestJobSteps.name);

  constructor(
    @Inject(SEPARATION_PROJECTS) private readonly projects: Pick<SeparationProjects, 'setAudioKey' | 'setAnalysis'>,
    @Inject(STEM_STORAGE) private readonly storage: Pick<StemStorage, 'presignedReadUrl' | 'putStream'>,
    @Inject(SEPARATION_MEDIA_TOOLS) private readonly tools: Pick<SeparationMediaTools, 'extractAudioTrack'>,
    @Inject(SEPARATION_EVENTS) private readonly events: SeparationEvents,
  ) {}

  async audioOf(ownerId: string, project: ProjectToSeparate): Promise<string | null> {
    if (project.audioKey) return project.audioKey;
    if (project.source !== 'video' || !project.originalKey) return null;
    const audioKey = extractedAudioKey(ownerId, project._id);
    const originalKey = project.originalKey;
    const started = Date.now();
    await inSpan('media.extract-audio', { [SPAN_ATTRIBUTES.projectId]: project._id }, async () => {
      const { stream, done } = this.tools.extractAudioTrack(await this.storage.presignedReadUrl(originalKey));
      await Promise.all([this.storage.putStream(audioKey, stream, 'audio/flac'), done]);
    });
    // Deleted meanwhile: the job's own check finds it gone and removes the project's objects.
    await this.projects.setAudioKey(ownerId, project._id, audioKey);
    this.logger.log(`project ${project._id}: audio track extracted from the video in ${Date.now() - started} ms`);
    return audioKey;
  }

  async *analysing(ownerId: string, project: ProjectToSeparate, decode: DecodedSource): AsyncGenerator<StereoAudio> {
    if (project.analysis) {
      yield* decode.chunks;
      return;
    }
    const analysis = new StreamingAnalysis(decode.sampleRate, decode.expectedFrames);
    for await (const chunk of decode.chunks) {
      analysis.push(chunk);
      yield chunk;
    }
    const started = Date.now();
    const result = analysis.finish();
    const duration = Math.round((analysis.length / decode.sampleRate) * 1000) / 1000;
    // The span covers what the analysis adds after the shared decode: its last computations and the stored result.
    const attributes = { [SPAN_ATTRIBUTES.projectId]: project._id, [SPAN_ATTRIBUTES.audioSeconds]: duration, 'stemdeck.analysis.finish_ms': Date.now() - started };
    const stored = await inSpan('media.analysis', attributes, () =>
      this.projects.setAnalysis(ownerId, project._id, {
        duration,
        bpm: result.bpm,
        key: result.key,
        analysis: { loudnessLufs: result.loudnessLufs, spotifyFeatures: result.spotifyFeatures },
      }),
    );
    if (!stored) return;
    this.logger.log(`project ${project._id}: ${duration.toFixed(1)} s analysed (${result.bpm} BPM, ${result.key}); finishing took ${Date.now() - started} ms`);
    this.events.publish({ type: 'project_analysed', ownerId, projectId: project._id, bpm: result.bpm, key: result.key, duration });
  }
}
