import { StereoStft, type StereoSamples, type StereoSpectrogram } from '../../dsp';
import { estimateMasks, MaskWorkspace } from './masks';
import type { FastParameters } from './parameters';
import type { Segment } from './segments';

/** Output buffers of one separation, shared by every thread: the four stems, zeroed before any segment. */
export interface StemBuffers {
  vocals: StereoSamples;
  drums: StereoSamples;
  bass: StereoSamples;
  other: StereoSamples;
}

/** Everything one thread allocates once and reuses for each segment it separates. */
export class SegmentSeparator {
  private readonly stft: StereoStft;
  private readonly spectrogram: StereoSpectrogram;
  private readonly workspace: MaskWorkspace;

  constructor(
    private readonly params: FastParameters,
    maxFrames: number,
  ) {
    this.stft = new StereoStft(params.fftSize, params.hop);
    this.spectrogram = this.stft.createSpectrogram(0, maxFrames);
    this.workspace = new MaskWorkspace(maxFrames, this.stft.bins, params);
  }

  /**
   * Analyses the segment's frames, estimates the stem masks and resynthesises vocals, drums and bass into
   * the segment's own samples; 'other' gets what is left of the mixture there, so the four stems always
   * add up to the input exactly.
   */
  separate(mixture: StereoSamples, segment: Segment, out: StemBuffers): void {
    const { stft, spectrogram } = this;
    spectrogram.firstFrame = segment.analysisFrom;
    spectrogram.frames = segment.analysisTo - segment.analysisFrom;
    stft.analyze(mixture, spectrogram);
    const masks = estimateMasks(spectrogram, this.params, this.workspace);

    const length = mixture.left.length;
    const fromSample = segment.ownFrom * stft.hop;
    const toSample = Math.min(length, segment.ownTo * stft.hop);
    const stems = ['vocals', 'drums', 'bass'] as const;
    stft.synthesize(
      spectrogram,
      segment.ownFrom,
      segment.synthesisTo,
      stems.map((stem) => ({ left: masks[stem], right: masks[stem] })),
      stems.map((stem) => out[stem]),
      fromSample,
      toSample,
    );
    for (const channel of ['left', 'right'] as const) {
      const mix = mixture[channel];
      const [vocals, drums, bass, other] = [out.vocals[channel], out.drums[channel], out.bass[channel], out.other[channel]];
      for (let t = fromSample; t < toSample; t++) other[t] = mix[t] - vocals[t] - drums[t] - bass[t];
    }
  }
}
