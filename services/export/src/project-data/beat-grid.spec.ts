import { barCount, beatsCsv, beatsOf } from './beat-grid';

describe('the beat grid', () => {
  it('puts beat n at n × 60 / bpm from 0, bars of the time signature, every beat before the end', () => {
    const beats = beatsOf({ bpm: 120, beatsPerBar: 4, firstBeatSeconds: 0 }, 4.1);
    expect(beats).toHaveLength(9);
    expect(beats[0]).toEqual({ index: 0, seconds: 0, bar: 1, beatInBar: 1 });
    expect(beats[3]).toEqual({ index: 3, seconds: 1.5, bar: 1, beatInBar: 4 });
    expect(beats[4]).toEqual({ index: 4, seconds: 2, bar: 2, beatInBar: 1 });
    expect(beats[8]).toEqual({ index: 8, seconds: 4, bar: 3, beatInBar: 1 });
  });

  it('counts ceil(duration × bpm / 60) beats, none at the very end', () => {
    expect(beatsOf({ bpm: 120, beatsPerBar: 4, firstBeatSeconds: 0 }, 4)).toHaveLength(8);
    expect(beatsOf({ bpm: 93.75, beatsPerBar: 3, firstBeatSeconds: 0 }, 180)).toHaveLength(Math.ceil((180 * 93.75) / 60));
    expect(beatsOf({ bpm: 0, beatsPerBar: 4, firstBeatSeconds: 0 }, 10)).toEqual([]);
    expect(beatsOf({ bpm: 120, beatsPerBar: 4, firstBeatSeconds: 0 }, 0)).toEqual([]);
  });

  it('bars of 3 beats in 3/4', () => {
    const beats = beatsOf({ bpm: 90, beatsPerBar: 3, firstBeatSeconds: 0 }, 10);
    expect(beats.map((beat) => beat.beatInBar).slice(0, 7)).toEqual([1, 2, 3, 1, 2, 3, 1]);
    expect(beats[6]!.bar).toBe(3);
    expect(barCount({ bpm: 90, beatsPerBar: 3, firstBeatSeconds: 0 }, 10)).toBe(Math.ceil(10 / 2));
  });

  it('writes beats.csv with its header and times to 0.1 ms', () => {
    const csv = beatsCsv(beatsOf({ bpm: 128, beatsPerBar: 4, firstBeatSeconds: 0 }, 1.9));
    expect(csv.split('\n')).toEqual(['beat,time,bar,beat_in_bar', '0,0,1,1', '1,0.4688,1,2', '2,0.9375,1,3', '3,1.4063,1,4', '4,1.875,2,1', '']);
  });
});
