import { MAX_UPLOAD_BYTES } from '@stemdeck/proto';
import { storageUsage } from '../limits/storage-quota';
import { HOLD_LIFETIME_MS, MemoryUploadHolds, type UploadHoldStore } from '../limits/upload-holds';
import { UploadTooLargeError } from './multipart-upload.adapter';
import { OpenUploadRoomUseCase } from './open-upload-room.usecase';

const MB = 1024 ** 2;
const GB = 1024 ** 3;

/** A user who has `storedBytes` of a `quotaBytes` quota stored, holds in memory, a clock the spec moves. */
function setUp(storedBytes: number, quotaBytes: number, holds: UploadHoldStore = new MemoryUploadHolds()) {
  const clock = { time: 1_000_000, now: () => clock.time };
  let id = 0;
  const stored = { bytes: storedBytes };
  const usage = { execute: async () => storageUsage(stored.bytes, quotaBytes) };
  const useCase = new OpenUploadRoomUseCase(usage, holds, { randomUUID: () => `upload-${++id}` }, clock);
  return { useCase, clock, stored, holds };
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('the upload was let in');
    },
    (error: Error) => {
      expect(error).toBeInstanceOf(UploadTooLargeError);
      return error.message;
    },
  );

describe('OpenUploadRoomUseCase', () => {
  it('checks a second upload at the same moment against what the first holds, and says so', async () => {
    const { useCase } = setUp(4 * GB, 5 * GB);
    const first = await useCase.execute('u1', 600 * MB);
    expect(first.usage).toEqual({ usedBytes: 4 * GB, quotaBytes: 5 * GB, remainingBytes: 600 * MB, inProgressBytes: 0 });
    expect(await refusal(useCase.execute('u1', 600 * MB))).toBe(
      'This upload needs 600 MB but only 424 MB of your 5 GB is left (4.59 GB used, 600 MB of it by your uploads still in progress). Delete a project to make room.',
    );
    // What is left after the first one's hold still takes a smaller upload.
    const second = await useCase.execute('u1', 400 * MB);
    expect(second.usage).toMatchObject({ usedBytes: 4 * GB + 600 * MB, remainingBytes: 400 * MB, inProgressBytes: 600 * MB });
  });

  it('gives the room back on release: the stored file then counts instead', async () => {
    const { useCase, stored } = setUp(4 * GB, 5 * GB);
    const first = await useCase.execute('u1', 600 * MB);
    stored.bytes += 600 * MB;
    await first.release();
    expect(await refusal(useCase.execute('u1', 600 * MB))).toMatch(/^This upload needs 600 MB but only 424 MB .* \(4\.59 GB used\)\./);
    await expect(useCase.execute('u1', 400 * MB)).resolves.toMatchObject({ usage: { remainingBytes: 400 * MB, inProgressBytes: 0 } });
  });

  it('lets an upload of unknown length hold all that is left, up to the upload limit', async () => {
    const { useCase } = setUp(4 * GB, 5 * GB);
    const open = await useCase.execute('u1', Number.NaN);
    expect(open.usage.remainingBytes).toBe(MAX_UPLOAD_BYTES);
    expect((await useCase.execute('u1', undefined)).usage.remainingBytes).toBe(MAX_UPLOAD_BYTES);
    const rest = await useCase.execute('u1', undefined);
    expect(rest.usage.remainingBytes).toBe(GB - 2 * MAX_UPLOAD_BYTES);
    expect(await refusal(useCase.execute('u1', undefined))).toMatch(/^This upload needs more than 0 MB but nothing of your 5 GB is left/);
  });

  it("keeps users apart: one user's uploads in flight take nothing from another's room", async () => {
    const { useCase } = setUp(4 * GB, 5 * GB);
    await useCase.execute('u1', 900 * MB);
    await expect(useCase.execute('u2', 900 * MB)).resolves.toMatchObject({ usage: { remainingBytes: 900 * MB, inProgressBytes: 0 } });
  });

  it('forgets a hold that was never released once it lapses (a gateway that died mid-upload)', async () => {
    const { useCase, clock } = setUp(4 * GB, 5 * GB);
    await useCase.execute('u1', 900 * MB);
    await refusal(useCase.execute('u1', 900 * MB));
    clock.time += HOLD_LIFETIME_MS + 1;
    await expect(useCase.execute('u1', 900 * MB)).resolves.toMatchObject({ usage: { remainingBytes: 900 * MB } });
  });

  it('fails as the object store fails when the usage cannot be read (not as the holds)', async () => {
    const holds = new MemoryUploadHolds();
    const down = new Error('object storage unreachable');
    const usage = { execute: async () => Promise.reject(down) };
    const useCase = new OpenUploadRoomUseCase(usage, holds, { randomUUID: () => 'upload-1' }, { now: () => 0 });
    await expect(useCase.execute('u1', 600 * MB)).rejects.toBe(down);
    expect(holds.holds.get('u1')).toBeUndefined();
  });

  it('checks against what is stored alone when the holds cannot be read', async () => {
    const broken: UploadHoldStore = {
      hold: async () => {
        throw new Error('no responders');
      },
      release: async () => undefined,
    };
    const { useCase } = setUp(4 * GB, 5 * GB, broken);
    const room = await useCase.execute('u1', 600 * MB);
    expect(room.usage).toEqual(storageUsage(4 * GB, 5 * GB));
    await expect(room.release()).resolves.toBeUndefined();
  });
});
