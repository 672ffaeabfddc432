import { effectiveGain } from '../../../../frontend/src/audio/stemGain';
import { envelopesCsv, envelopeValue, FrameMeter, mixPower } from './envelopes';
import { stemGain } from './stem-gain';

const constant = (value: number, length: number) => new Float32Array(length).fill(value);

describe('envelope framing', () => {
  it('measures the mono downmix per 1/fps second at 48 kHz (800 samples a frame)', () => {
    const meter = new FrameMeter(48_000, 60);
    meter.push(constant(0.5, 800), constant(0.5, 800));
    meter.push(constant(0.5, 800), constant(-0.5, 800)); // out of phase: the downmix is silent
    meter.push(constant(1, 400), constant(0, 400)); // half a frame, mono 0.5
    const power = meter.finish();
    expect(Array.from(power)).toEqual([0.25, 0, 0.25]);
  });

  it('frames any sample rate (44.1 kHz: 735 samples) however the chunks fall', () => {
    const meter = new FrameMeter(44_100, 60);
    const left = Float32Array.from({ length: 44_100 }, (_, i) => (Math.floor(i / 735) % 2 ? 0.2 : 0.6));
    for (let at = 0; at < left.length; at += 1000) meter.push(left.subarray(at, at + 1000), left.subarray(at, at + 1000));
    const power = meter.finish();
    expect(power).toHaveLength(60);
    expect(power[0]).toBeCloseTo(0.36, 6);
    expect(power[1]).toBeCloseTo(0.04, 6);
    expect(power[59]).toBeCloseTo(0.04, 6);
  });

  it('keeps frame boundaries on round(k × rate / fps) for a rate that does not divide', () => {
    const meter = new FrameMeter(22_050, 60); // 367.5 samples a frame
    meter.push(constant(1, 22_050), constant(1, 22_050));
    expect(meter.finish()).toHaveLength(60);
    // The first frame ends at round(367.5) = 368 samples; one sample more opens a second, short frame.
    const whole = new FrameMeter(22_050, 60);
    whole.push(constant(1, 368), constant(1, 368));
    expect(whole.finish()).toHaveLength(1);
    const onePast = new FrameMeter(22_050, 60);
    onePast.push(constant(1, 369), constant(1, 369));
    expect(Array.from(onePast.finish())).toEqual([1, 1]);
  });

  it('writes envelopes.csv: time then each stem\'s RMS after its gain, 0..1, as many rows as frames', () => {
    const vocals = Float64Array.from([0.25, 0.04, 0]);
    const drums = Float64Array.from([1, 4]);
    const csv = envelopesCsv(
      [
        { type: 'vocals', power: vocals, gain: 1 },
        { type: 'drums', power: drums, gain: 0.5 },
      ],
      60,
    );
    expect(csv.split('\n')).toEqual(['time,vocals,drums', '0,0.5,0.5', '0.0167,0.2,1', '0.0333,0,0', '']);
  });

  it('clamps a boosted level at 1 and reads a silenced stem as 0', () => {
    expect(envelopeValue(0.81, 10 ** (12 / 20))).toBe(1);
    expect(envelopeValue(0.81, 0)).toBe(0);
    expect(envelopeValue(-1e-12, 1)).toBe(0);
  });

  it('sums the stems\' power into the mix\'s', () => {
    expect(Array.from(mixPower([{ power: Float64Array.from([1, 2]) }, { power: Float64Array.from([0.5]) }]))).toEqual([1.5, 2]);
  });
});

describe('stem gain', () => {
  it.each([
    [{ volume: 0, muted: false, soloed: false }, false],
    [{ volume: -6, muted: false, soloed: false }, false],
    [{ volume: 20, muted: false, soloed: false }, false],
    [{ volume: -90, muted: false, soloed: false }, false],
    [{ volume: Number.NaN, muted: false, soloed: false }, false],
    [{ volume: 3, muted: true, soloed: false }, false],
    [{ volume: 3, muted: false, soloed: false }, true],
    [{ volume: 3, muted: false, soloed: true }, true],
  ])('is the studio mixer\'s for %j (others soloed: %s)', (stem, anySoloed) => {
    expect(stemGain(stem, anySoloed)).toBe(effectiveGain(stem, anySoloed));
  });
});
