import { Button, Card, HStack, Text } from '@chakra-ui/react';
import { Volume2 } from 'lucide-react';
import { useState } from 'react';
import { instrumentRack } from '../../instruments/instrumentRack';

type Outcome = 'untested' | 'playing' | 'working' | 'failed';

/** The audio test: four tones; the outcome is measured at the output, not assumed. */
export function AudioTestBanner() {
  const [outcome, setOutcome] = useState<Outcome>('untested');

  const test = async () => {
    setOutcome('playing');
    try {
      const rack = await instrumentRack();
      setOutcome((await rack.testAudio()) ? 'working' : 'failed');
    } catch {
      setOutcome('failed');
    }
  };

  return (
    <Card.Root data-testid="audio-test">
      <Card.Body>
        <HStack justify="space-between" wrap="wrap" gap="3">
          <HStack>
            <Volume2 />
            <Text fontSize="sm">
              {outcome === 'working'
                ? 'Audio is working!'
                : outcome === 'failed'
                  ? 'Audio failed - check browser settings'
                  : 'Check that you can hear the studio: four short tones.'}
            </Text>
          </HStack>
          <Button size="sm" colorPalette="purple" disabled={outcome === 'playing'} onClick={() => void test()}>
            {outcome === 'playing' ? 'Playing...' : outcome === 'untested' ? 'Test Audio' : 'Test Again'}
          </Button>
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}
