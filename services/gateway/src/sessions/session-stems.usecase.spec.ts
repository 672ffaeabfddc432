import type { ObjectLocation, Session, Stem, StemVersion } from '@stemdeck/proto';
import { DomainError } from '../errors/domain-error';
import { sessionStemAudioPath, SessionStemsUseCase, STEM_NOT_FOUND, type HostStemCalls, type SessionAccessCalls } from './session-stems.usecase';

const session: Session = {
  id: 's1',
  name: 'Friday jam',
  projectId: 'p-host',
  projectName: 'Night Drive',
  hostUserId: 'user-host',
  hostName: 'Demo User',
  maxParticipants: 8,
  isActive: true,
  participantCount: 2,
  createdAt: '2026-11-24T00:00:00.000Z',
};
const stem = (id: string, projectId: string, changes: Partial<Stem> = {}): Stem => ({
  id,
  projectId,
  type: 'vocals',
  engine: 'fast',
  volume: 0,
  muted: false,
  soloed: false,
  quality: 'fast',
  version: 'original',
  enhanced: null,
  url: `/api/stems/${id}/audio`,
  ...changes,
});

/** The sessions service: the host and the guest are in s1; anyone else (or another session) is its 404. */
const access: SessionAccessCalls = {
  access: async (userId, sessionId) => {
    if (sessionId !== 's1' || !['user-host', 'user-guest'].includes(userId)) throw new DomainError(404, 'Session not found');
    return { session, participant: { id: `pt-${userId}`, sessionId, userId, name: userId, role: 'viewer', isOnline: false, lastActive: session.createdAt } };
  },
};

/** Media: stems per owner and project; it answers only its owner (as media does). */
class HostMedia implements HostStemCalls {
  readonly audioAsked: Array<[string, string, StemVersion | undefined]> = [];
  constructor(private readonly stems: Record<string, Stem[]>) {}
  listStems = async (ownerId: string, projectId: string) => {
    const found = this.stems[`${ownerId}/${projectId}`];
    if (!found) throw new DomainError(404, 'Project not found');
    return found;
  };
  stemAudio = async (ownerId: string, stemId: string, version?: StemVersion): Promise<ObjectLocation> => {
    this.audioAsked.push([ownerId, stemId, version]);
    return { objectKey: `${ownerId}/${stemId}.flac`, contentType: 'audio/flac', fileName: `${stemId}.flac` };
  };
}

describe('SessionStemsUseCase', () => {
  const enhanced = stem('st-drums', 'p-host', { type: 'drums', version: 'enhanced', enhanced: { jobId: 'job 7', createdAt: session.createdAt } });
  const media = () =>
    new HostMedia({
      'user-host/p-host': [stem('st-vocals', 'p-host'), enhanced],
      'user-guest/p-guest': [stem('st-guest', 'p-guest')],
    });

  it("lists the host's project stems for a participant in the mixer's shape, each url under the session", async () => {
    const stems = await new SessionStemsUseCase(access, media()).list('user-guest', 's1');
    expect(stems.map((s) => [s.id, s.type, s.url])).toEqual([
      ['st-vocals', 'vocals', '/api/sessions/s1/stems/st-vocals/audio'],
      ['st-drums', 'drums', '/api/sessions/s1/stems/st-drums/audio?job=job%207'],
    ]);
    expect(stems[1]).toMatchObject({ version: 'enhanced', volume: 0, muted: false, soloed: false, engine: 'fast' });
  });

  it('is 404 for someone not in the session, asking media nothing', async () => {
    const host = media();
    const listed = jest.spyOn(host, 'listStems');
    const useCase = new SessionStemsUseCase(access, host);
    await expect(useCase.list('user-stranger', 's1')).rejects.toEqual(new DomainError(404, 'Session not found'));
    await expect(useCase.audio('user-stranger', 's1', 'st-vocals')).rejects.toEqual(new DomainError(404, 'Session not found'));
    expect(listed).not.toHaveBeenCalled();
    expect(host.audioAsked).toEqual([]);
  });

  it("serves a session stem's audio as the host (the version the host plays)", async () => {
    const host = media();
    await expect(new SessionStemsUseCase(access, host).audio('user-guest', 's1', 'st-drums')).resolves.toEqual({
      objectKey: 'user-host/st-drums.flac',
      contentType: 'audio/flac',
      fileName: 'st-drums.flac',
    });
    expect(host.audioAsked).toEqual([['user-host', 'st-drums', undefined]]);
  });

  it("is 404 for a stem of another project, even the caller's own, and never reads it", async () => {
    const host = media();
    const useCase = new SessionStemsUseCase(access, host);
    await expect(useCase.audio('user-guest', 's1', 'st-guest')).rejects.toEqual(new DomainError(404, STEM_NOT_FOUND));
    await expect(useCase.audio('user-host', 's1', 'no-such-stem')).rejects.toEqual(new DomainError(404, STEM_NOT_FOUND));
    expect(host.audioAsked).toEqual([]);
  });

  it('is 409 once the session has ended: its participants no longer hear the host\'s project through it', async () => {
    const ended: SessionAccessCalls = { access: async (userId, sessionId) => ({ ...(await access.access(userId, sessionId)), session: { ...session, isActive: false } }) };
    const useCase = new SessionStemsUseCase(ended, media());
    await expect(useCase.list('user-guest', 's1')).rejects.toMatchObject({ status: 409, message: 'Session is not active' });
    await expect(useCase.audio('user-guest', 's1', 'st-drums')).rejects.toMatchObject({ status: 409 });
  });

  it('escapes ids in the audio path', () => {
    expect(sessionStemAudioPath('s/1', 'a b')).toBe('/api/sessions/s%2F1/stems/a%20b/audio');
  });
});
