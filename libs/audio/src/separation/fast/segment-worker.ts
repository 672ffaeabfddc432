/**
 * worker_threads entry, in one of two modes:
 * - whole array: separates the segments its parent names, writing straight into the shared output
 *   buffers (segments own disjoint samples, so workers never write the same place);
 * - stream: separates the input slice each message carries and answers the segment's owned samples
 *   (transferred back, so nothing is copied between threads).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { StereoSamples } from '../../dsp';
import type { FastParameters } from './parameters';
import { SegmentSeparator, type StemBuffers } from './separate-segment';
import { maxAnalysisFrames, type Segment } from './segments';
import { separateSlice, type SegmentSlice } from './stream-separator';

export interface SegmentWorkerData {
  params: FastParameters;
  segments: Segment[];
  mixture: StereoSamples;
  out: StemBuffers;
}

export interface StreamWorkerData {
  stream: true;
  params: FastParameters;
  maxFrames: number;
}

export type SegmentWorkerRequest = { segment: number };
export type SegmentWorkerReply = { done: number };
export type StreamWorkerRequest = { slice: SegmentSlice };

const data = workerData as SegmentWorkerData | StreamWorkerData;
if ('stream' in data) {
  const separator = new SegmentSeparator(data.params, data.maxFrames);
  parentPort!.on('message', ({ slice }: StreamWorkerRequest) => {
    const result = separateSlice(separator, slice);
    const buffers = Object.values(result.stems).flatMap((stem) => [stem.left.buffer, stem.right.buffer]) as ArrayBuffer[];
    parentPort!.postMessage(result, buffers);
  });
} else {
  const { params, segments, mixture, out } = data;
  const separator = new SegmentSeparator(params, maxAnalysisFrames(segments));
  parentPort!.on('message', ({ segment }: SegmentWorkerRequest) => {
    separator.separate(mixture, segments[segment], out);
    parentPort!.postMessage({ done: segment } satisfies SegmentWorkerReply);
  });
}
