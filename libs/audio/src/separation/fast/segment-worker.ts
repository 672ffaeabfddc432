/**
 * worker_threads entry: separates the segments its parent hands it, one message each, writing straight into
 * the shared output buffers (segments own disjoint samples, so workers never write the same place).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { StereoSamples } from '../../dsp';
import type { FastParameters } from './parameters';
import { SegmentSeparator, type StemBuffers } from './separate-segment';
import { maxAnalysisFrames, type Segment } from './segments';

export interface SegmentWorkerData {
  params: FastParameters;
  segments: Segment[];
  mixture: StereoSamples;
  out: StemBuffers;
}

export type SegmentWorkerRequest = { segment: number };
export type SegmentWorkerReply = { done: number };

const { params, segments, mixture, out } = workerData as SegmentWorkerData;
const separator = new SegmentSeparator(params, maxAnalysisFrames(segments));
parentPort!.on('message', ({ segment }: SegmentWorkerRequest) => {
  separator.separate(mixture, segments[segment], out);
  parentPort!.postMessage({ done: segment } satisfies SegmentWorkerReply);
});
