import { SHARE_LINK_GONE_MESSAGE, type ObjectLocation, type Project, type ResolvedShareLink, type SpotifyFeatures, type Stem } from '@stemdeck/proto';
import { DomainError } from '../errors/domain-error';
import { SharedProjectReader } from './shared-project.reader';

const TOKEN = 'T'.repeat(43);
const features: SpotifyFeatures = {
  danceability: 0.6, energy: 0.7, valence: 0.5, acousticness: 0.1, instrumentalness: 0.2, liveness: 0.1, speechiness: 0.05,
  loudness: -9, tempo: 120, key: 9, mode: 0, time_signature: 4, duration_ms: 6000,
};
const project: Project = {
  id: 'p1', name: 'Song', originalFile: 'users/u1/projects/p1/original.wav', duration: 6, bpm: 120, key: 'A minor',
  source: 'audio', activeEngine: 'fast', createdAt: '2026-01-01T00:00:00.000Z',
};
const stem = (id: string, changes: Partial<Stem> = {}): Stem => ({
  id, projectId: 'p1', type: 'vocals', engine: 'fast', volume: 0, muted: false, soloed: false, quality: 'fast',
  version: 'original', enhanced: null, url: `/api/stems/${id}/audio`, ...changes,
});

/** The export service's answer for each token, and media's projects of owner u1. */
class FakeWorld {
  links = new Map<string, ResolvedShareLink | DomainError>([[TOKEN, { ownerId: 'u1', projectId: 'p1', linkId: 'l1', expiresAt: null }]]);
  projects = new Map<string, Project>([['p1', project]]);
  stems: Stem[] = [
    stem('s1', { volume: -6 }),
    stem('s2', { type: 'drums', muted: true, version: 'enhanced', enhanced: { jobId: 'job 7', createdAt: '2026-01-02T00:00:00.000Z' } }),
  ];
  analysis: { spotifyFeatures: SpotifyFeatures; loudnessLufs: number } | null = { spotifyFeatures: features, loudnessLufs: -12 };
  resolved: string[] = [];

  async resolveShareLink(token: string): Promise<ResolvedShareLink> {
    this.resolved.push(token);
    const link = this.links.get(token) ?? new DomainError(404, SHARE_LINK_GONE_MESSAGE);
    if (link instanceof DomainError) throw link;
    return link;
  }
  async getProject(ownerId: string, projectId: string): Promise<Project> {
    return this.owned(ownerId, projectId);
  }
  async listStems(ownerId: string, projectId: string): Promise<Stem[]> {
    this.owned(ownerId, projectId);
    return this.stems;
  }
  async projectAnalysis(ownerId: string, projectId: string) {
    this.owned(ownerId, projectId);
    if (!this.analysis) throw new DomainError(404, 'This project has no analysis (no audio was uploaded)');
    return this.analysis;
  }
  async stemAudio(ownerId: string, stemId: string): Promise<ObjectLocation> {
    if (ownerId !== 'u1') throw new DomainError(404, 'Stem not found');
    return { objectKey: `users/u1/projects/p1/stems/${stemId}.flac`, contentType: 'audio/flac', fileName: `${stemId}.flac` };
  }
  private owned(ownerId: string, projectId: string): Project {
    const found = ownerId === 'u1' ? this.projects.get(projectId) : undefined;
    if (!found) throw new DomainError(404, 'Project not found');
    return found;
  }
}

describe('the shared project a token opens', () => {
  let world: FakeWorld;
  let reader: SharedProjectReader;

  beforeEach(() => {
    world = new FakeWorld();
    reader = new SharedProjectReader(world, world);
  });

  it('shows the project, its stems as the mixer plays them (urls under the token) and its analysis — no owner id, no object key', async () => {
    const view = await reader.view(TOKEN);
    expect(view).toEqual({
      name: 'Song',
      duration: 6,
      bpm: 120,
      key: 'A minor',
      analysis: { spotifyFeatures: features, loudnessLufs: -12 },
      stems: [
        { id: 's1', type: 'vocals', volume: -6, muted: false, soloed: false, url: `/api/share/${TOKEN}/stems/s1/audio` },
        { id: 's2', type: 'drums', volume: 0, muted: true, soloed: false, url: `/api/share/${TOKEN}/stems/s2/audio?job=job%207` },
      ],
      expiresAt: null,
    });
    const text = JSON.stringify(view);
    expect(text).not.toContain('u1');
    expect(text).not.toContain('users/');
  });

  it('shows no analysis where the project has none', async () => {
    world.analysis = null;
    expect((await reader.view(TOKEN)).analysis).toBeNull();
  });

  it('passes on the export service\'s 410 and 404; a project gone under the link is 404; an overlong token never leaves the gateway', async () => {
    world.links.set('revoked', new DomainError(410, SHARE_LINK_GONE_MESSAGE));
    await expect(reader.view('revoked')).rejects.toMatchObject({ status: 410, message: SHARE_LINK_GONE_MESSAGE });
    await expect(reader.view('unknown')).rejects.toMatchObject({ status: 404, message: SHARE_LINK_GONE_MESSAGE });
    world.projects.clear();
    await expect(reader.view(TOKEN)).rejects.toMatchObject({ status: 404, message: SHARE_LINK_GONE_MESSAGE });
    await expect(reader.stemAudio(TOKEN, 's1')).rejects.toMatchObject({ status: 404, message: SHARE_LINK_GONE_MESSAGE });
    world.resolved = [];
    await expect(reader.view('x'.repeat(201))).rejects.toMatchObject({ status: 404, message: SHARE_LINK_GONE_MESSAGE });
    expect(world.resolved).toEqual([]);
  });

  it('serves the audio of the shared project\'s stems only', async () => {
    expect(await reader.stemAudio(TOKEN, 's2')).toMatchObject({ contentType: 'audio/flac', fileName: 's2.flac' });
    await expect(reader.stemAudio(TOKEN, 'someone-elses-stem')).rejects.toMatchObject({ status: 404, message: 'Stem not found' });
    world.links.set('revoked', new DomainError(410, SHARE_LINK_GONE_MESSAGE));
    await expect(reader.stemAudio('revoked', 's1')).rejects.toMatchObject({ status: 410, message: SHARE_LINK_GONE_MESSAGE });
  });
});
