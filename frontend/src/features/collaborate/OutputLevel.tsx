import { Box, HStack, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { onAudioContext } from '../../audio/audioContext';
import { masterAnalyser } from '../../audio/masterEffects';

/** How often the meter reads the master bus, and how long it holds a peak (a drum hit stays visible). */
const METER_REFRESH_MS = 100;
const PEAK_HOLD_MS = 1500;

/** The RMS of one analyser frame (0 = silence, 1 = full scale). */
export function rmsOf(samples: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i]! * samples[i]!;
  return samples.length ? Math.sqrt(sum / samples.length) : 0;
}

/**
 * What this browser is playing right now, from the studio's master bus (the session's stems and everyone's
 * pads), with a short peak hold. Still when nothing sounds here.
 */
export function OutputLevel() {
  const [level, setLevel] = useState({ now: 0, peak: 0 });
  useEffect(() => {
    let timer: ReturnType<typeof setInterval> | undefined;
    const off = onAudioContext((context) => {
      const analyser = masterAnalyser(context);
      const frame = new Float32Array(analyser.fftSize);
      let peak = 0;
      let peakAt = 0;
      timer = setInterval(() => {
        analyser.getFloatTimeDomainData(frame);
        const now = rmsOf(frame);
        const at = performance.now();
        if (now >= peak || at - peakAt > PEAK_HOLD_MS) {
          peak = now;
          peakAt = at;
        }
        setLevel((shown) => (shown.now === now && shown.peak === peak ? shown : { now, peak }));
      }, METER_REFRESH_MS);
    });
    return () => {
      off();
      clearInterval(timer);
    };
  }, []);
  // A level in dB over −60…0 as a share of the bar.
  const share = (rms: number) => (rms <= 0 ? 0 : Math.min(1, Math.max(0, (20 * Math.log10(rms) + 60) / 60)));
  return (
    <HStack gap="2" data-testid="session-output-level" data-level={level.now.toFixed(4)} data-peak={level.peak.toFixed(4)}>
      <Text fontSize="sm" whiteSpace="nowrap" id="session-output-level-label">
        Output
      </Text>
      <Box
        flex="1"
        h="2"
        minW="24"
        bg="bg.muted"
        rounded="full"
        overflow="hidden"
        role="meter"
        aria-labelledby="session-output-level-label"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(share(level.now) * 100)}
      >
        <Box h="full" w={`${share(level.now) * 100}%`} bg="green.500" transition="width 90ms linear" />
      </Box>
    </HStack>
  );
}
