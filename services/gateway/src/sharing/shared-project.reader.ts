import { SHARE_LINK_GONE_MESSAGE, type ObjectLocation, type ResolvedShareLink, type SharedProject, type Stem } from '@stemdeck/proto';
import { DomainError } from '../errors/domain-error';
import type { ExportClient } from '../export/export.client';
import type { MediaClient } from '../media/media.client';

/** Longer than any token we issue; the export service refuses longer input as malformed (400), a visitor should see "not available". */
const MAX_TOKEN_LENGTH = 200;

/** Where the public view serves a shared stem's audio: under the token, so it works signed out. */
export const sharedStemAudioPath = (token: string, stemId: string): string =>
  `/api/share/${encodeURIComponent(token)}/stems/${encodeURIComponent(stemId)}/audio`;

/**
 * The stem's url in the public view: the version the mixer plays; an enhanced one names its job, so no
 * cache keyed by url hands out the original (or an older job's result) for it (the route ignores `job`).
 */
const sharedStemUrl = (token: string, stem: Stem): string =>
  stem.version === 'enhanced' && stem.enhanced
    ? `${sharedStemAudioPath(token, stem.id)}?job=${encodeURIComponent(stem.enhanced.jobId)}`
    : sharedStemAudioPath(token, stem.id);

const gone = (): DomainError => new DomainError(404, SHARE_LINK_GONE_MESSAGE);

/** A media 404 while reading a shared project means the project went away under the link: the link is gone too. */
const goneIfAbsent = (error: unknown): never => {
  if (error instanceof DomainError && error.status === 404) throw gone();
  throw error;
};

/**
 * What a share link opens, for anyone holding its token: the export service says whose project it is (or
 * 404/410 with the words visitors see), then media is asked as that owner. The answer holds what the
 * player needs — no owner id, no object key, no other project's stem.
 */
export class SharedProjectReader {
  constructor(
    private readonly links: Pick<ExportClient, 'resolveShareLink'>,
    private readonly media: Pick<MediaClient, 'getProject' | 'listStems' | 'projectAnalysis' | 'stemAudio'>,
  ) {}

  async view(token: string): Promise<SharedProject> {
    const link = await this.resolve(token);
    const project = await this.media.getProject(link.ownerId, link.projectId).catch(goneIfAbsent);
    const [stems, analysis] = await Promise.all([
      this.media.listStems(link.ownerId, link.projectId).catch(goneIfAbsent),
      this.media.projectAnalysis(link.ownerId, link.projectId).catch((error: unknown) => {
        // A project made without a file has no analysis: the view shows none.
        if (error instanceof DomainError && error.status === 404) return null;
        throw error;
      }),
    ]);
    return {
      name: project.name,
      duration: project.duration,
      bpm: project.bpm,
      key: project.key,
      analysis: analysis ? { spotifyFeatures: analysis.spotifyFeatures, loudnessLufs: analysis.loudnessLufs } : null,
      stems: stems.map((stem) => ({
        id: stem.id,
        type: stem.type,
        volume: stem.volume,
        muted: stem.muted,
        soloed: stem.soloed,
        url: sharedStemUrl(token, stem),
      })),
      expiresAt: link.expiresAt,
    };
  }

  /** Where a shared stem's audio is (the version the mixer plays); a stem that is not one of the shared project's is 404. */
  async stemAudio(token: string, stemId: string): Promise<ObjectLocation> {
    const link = await this.resolve(token);
    const stems = await this.media.listStems(link.ownerId, link.projectId).catch(goneIfAbsent);
    if (!stems.some((stem) => stem.id === stemId)) throw new DomainError(404, 'Stem not found');
    return this.media.stemAudio(link.ownerId, stemId);
  }

  private resolve(token: string): Promise<ResolvedShareLink> {
    if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) return Promise.reject(gone());
    return this.links.resolveShareLink(token);
  }
}
