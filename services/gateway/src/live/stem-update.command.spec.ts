import type { LiveClientMessage, LiveServerMessage, Stem, UpdateStemBody } from '@stemdeck/proto';
import type { LiveClient, LiveHandler } from './live.hub';
import { StemUpdateCommand } from './stem-update.command';

function setUp(fail = false) {
  let handler: LiveHandler<'stem_update'> | undefined;
  // The command registers one handler, for stem_update.
  const hub = { on: <T extends LiveClientMessage['type']>(_type: T, next: LiveHandler<T>) => void (handler = next as unknown as LiveHandler<'stem_update'>) };
  const stored: Array<{ ownerId: string; stemId: string; changes: UpdateStemBody; origin: string | null }> = [];
  const media = {
    updateStem: async (ownerId: string, stemId: string, changes: UpdateStemBody, origin: string | null = null): Promise<Stem> => {
      if (fail) throw new Error('Stem not found');
      stored.push({ ownerId, stemId, changes, origin });
      const stem: Stem = { id: stemId, projectId: 'p1', type: 'vocals', engine: 'fast', url: `/api/stems/${stemId}/audio`, volume: 0, muted: false, soloed: false, quality: 'good', version: 'original', enhanced: null };
      return { ...stem, ...changes };
    },
  };
  new StemUpdateCommand(hub, media);
  const sent: LiveServerMessage[] = [];
  const user = { id: 'owner-1', email: null, firstName: null, lastName: null, profileImageUrl: null };
  const client: LiveClient = { user, connectionId: 'tab-a', send: (message) => void sent.push(message) };
  return { stored, sent, send: (message: Parameters<LiveHandler<'stem_update'>>[1]) => handler!(client, message) };
}

describe('StemUpdateCommand', () => {
  it('stores the change for the owner, naming the socket as its origin, and answers stem_saved when it carried an id', async () => {
    const { stored, sent, send } = setUp();
    await send({ type: 'stem_update', id: 'save-1', stemId: 's1', volume: -3, muted: true });
    expect(stored).toEqual([{ ownerId: 'owner-1', stemId: 's1', changes: { volume: -3, muted: true }, origin: 'tab-a' }]);
    expect(sent).toEqual([{ type: 'stem_saved', id: 'save-1' }]);
    await send({ type: 'stem_update', stemId: 's1', soloed: true });
    expect(stored[1]).toEqual({ ownerId: 'owner-1', stemId: 's1', changes: { soloed: true }, origin: 'tab-a' });
    expect(sent).toHaveLength(1);
  });

  it('stores one socket\'s changes in the order sent', async () => {
    const { stored, send } = setUp();
    await Promise.all([send({ type: 'stem_update', stemId: 's1', volume: -1 }), send({ type: 'stem_update', stemId: 's1', volume: -2 })]);
    expect(stored.map((s) => s.changes.volume)).toEqual([-1, -2]);
  });

  it('answers nothing itself when the store fails: the failure goes to the hub (its error carries the id)', async () => {
    const { sent, send } = setUp(true);
    await expect(send({ type: 'stem_update', id: 'save-2', stemId: 's1', muted: true })).rejects.toThrow('Stem not found');
    expect(sent).toEqual([]);
  });
});
