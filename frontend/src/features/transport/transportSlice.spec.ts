import { fileLoaded, playerSynced, transportSlice, type TransportState } from './transportSlice';

const reduce = (actions: Parameters<typeof transportSlice.reducer>[1][], start?: TransportState) =>
  actions.reduce(transportSlice.reducer, start ?? transportSlice.getInitialState());

describe('transport state', () => {
  it('mirrors the player, clamping the position to the file', () => {
    const state = reduce([fileLoaded({ name: 'song.mp3', duration: 120 }), playerSynced({ position: 42.5, status: 'paused' })]);
    expect(state).toMatchObject({ status: 'paused', position: 42.5 });
    expect(reduce([playerSynced({ position: 500, status: 'playing' })], state).position).toBe(120);
    expect(reduce([playerSynced({ position: 3, status: 'playing' })]).position).toBe(0);
  });

  it('a new file starts stopped at 0', () => {
    const playing = reduce([fileLoaded({ name: 'a.wav', duration: 10 }), playerSynced({ position: 5, status: 'playing' })]);
    expect(reduce([fileLoaded({ name: 'b.wav', duration: 20 })], playing)).toEqual({ file: { name: 'b.wav', duration: 20 }, status: 'stopped', position: 0 });
  });
});
