import { DomainError } from '../errors/domain-error';
import type { StoredUpload } from './multipart-upload.adapter';
import { ReceiveUploadUseCase } from './receive-upload.usecase';

const UPLOAD: StoredUpload = { projectId: 'p1', objectKey: 'users/u1/projects/p1/original', fileName: 'song.mp3', sizeBytes: 1234 };

/** The hand-over to media with a media that answers `reply`, and storage that records what is discarded. */
function setUp(reply: () => Promise<unknown>) {
  const discarded: string[] = [];
  const requests: unknown[] = [];
  const media = {
    ingestUpload: async (request: unknown) => {
      requests.push(request);
      return reply() as never;
    },
  };
  const storage = { discard: async (key: string) => void discarded.push(key) };
  const useCase = new ReceiveUploadUseCase(media, storage);
  return { useCase, requests, discarded };
}

describe('ReceiveUploadUseCase', () => {
  it("answers with media's project and job, naming the owner", async () => {
    const answer = { project: { id: 'p1' }, job: null };
    const { useCase, requests, discarded } = setUp(async () => answer);
    await expect(useCase.execute('u1', UPLOAD)).resolves.toBe(answer);
    expect(requests).toEqual([{ ownerId: 'u1', ...UPLOAD }]);
    expect(discarded).toEqual([]);
  });

  it('leaves a refused upload to media, which removed it (no second cleanup)', async () => {
    const { useCase, discarded } = setUp(async () => {
      throw new DomainError(415, 'Please upload an audio or video file');
    });
    await expect(useCase.execute('u1', UPLOAD)).rejects.toMatchObject({ status: 415 });
    expect(discarded).toEqual([]);
  });

  it('discards the stored file itself when media never answered', async () => {
    const { useCase, discarded } = setUp(async () => {
      throw new Error('Timeout has occurred');
    });
    await expect(useCase.execute('u1', UPLOAD)).rejects.toThrow('Timeout has occurred');
    expect(discarded).toEqual([UPLOAD.objectKey]);
  });
});
