import { fileLoaded, paused, played, positionChanged, stopped, transportSlice, type TransportState } from './transportSlice';

const reduce = (actions: Parameters<typeof transportSlice.reducer>[1][], start?: TransportState) =>
  actions.reduce(transportSlice.reducer, start ?? transportSlice.getInitialState());

describe('transport state machine', () => {
  it('cannot play without a file', () => {
    expect(reduce([played()]).status).toBe('stopped');
  });

  it('pause keeps the position, stop returns to 0', () => {
    const pausedState = reduce([fileLoaded({ name: 'song.mp3', duration: 120 }), played(), positionChanged(42.5), paused()]);
    expect(pausedState).toMatchObject({ status: 'paused', position: 42.5 });
    expect(reduce([played(), stopped()], pausedState)).toMatchObject({ status: 'stopped', position: 0 });
  });

  it('stops by itself at the end of the duration', () => {
    expect(reduce([fileLoaded({ name: 'a.wav', duration: 10 }), played(), positionChanged(10)])).toMatchObject({ status: 'stopped', position: 0 });
  });
});
