import { HStack, Text } from '@chakra-ui/react';
import { Cpu } from 'lucide-react';
import { useEffect, useState } from 'react';
import { onAudioContext, renderCapacityOf } from '../../audio/audioContext';

/**
 * Audio-thread load from AudioContext.renderCapacity, averaged over 1 s. Hidden where the browser does
 * not expose it or before the audio context exists: no invented number.
 */
export function CpuMeter() {
  const [load, setLoad] = useState<number | null>(null);
  useEffect(() => {
    let stopCapacity: (() => void) | undefined;
    const unsubscribe = onAudioContext((context) => {
      const capacity = renderCapacityOf(context);
      if (!capacity) return;
      const onUpdate = (event: Event) => setLoad((event as Event & { averageLoad: number }).averageLoad);
      capacity.addEventListener('update', onUpdate);
      capacity.start({ updateInterval: 1 });
      stopCapacity = () => {
        capacity.removeEventListener('update', onUpdate);
        capacity.stop();
      };
    });
    return () => {
      unsubscribe();
      stopCapacity?.();
    };
  }, []);
  if (load === null) return null;
  return (
    <HStack gap="1" fontSize="xs" color="fg.muted" title="Audio rendering load" data-testid="cpu-meter">
      <Cpu size={14} />
      <Text>{Math.round(load * 100)}%</Text>
    </HStack>
  );
}
