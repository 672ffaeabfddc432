import { Box, Button, Card, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { COLLABORATION_PADS, type CollaborationPad } from '@stemdeck/proto/vocabulary';
import { Lock } from 'lucide-react';

export const padTestId = (pad: CollaborationPad) => `collab-pad-${pad.toLowerCase().replace(/\s+/g, '-')}`;

/**
 * The session's eight pads: a press lights the pad 150 ms, plays it here and on every participant's machine;
 * a hit by someone else pulses it 200 ms. Viewers see the pads without playing them.
 */
export function CollaborationPads({
  canPlay,
  pressed,
  pulsing,
  remoteHits,
  onPress,
}: {
  canPlay: boolean;
  pressed: Record<CollaborationPad, boolean>;
  pulsing: Record<CollaborationPad, boolean>;
  remoteHits: Record<CollaborationPad, number>;
  onPress: (pad: CollaborationPad) => void;
}) {
  return (
    <Card.Root data-testid="collaboration-pads">
      <Card.Body>
        <Stack gap="3">
          <Heading as="h3" size="md">
            Pads
          </Heading>
          {!canPlay && (
            <Text fontSize="sm" color="fg.muted" data-testid="pads-viewer-note">
              <Lock size={14} style={{ display: 'inline', verticalAlign: '-2px' }} /> Viewers can listen and chat. Ask the host to make you a collaborator to play the pads.
            </Text>
          )}
          <SimpleGrid columns={{ base: 2, sm: 4 }} gap="3">
            {COLLABORATION_PADS.map((pad) => {
              const state = pressed[pad] ? 'pressed' : pulsing[pad] ? 'remote' : 'idle';
              return (
                <Button
                  key={pad}
                  h="20"
                  variant="outline"
                  disabled={!canPlay}
                  onPointerDown={(event) => {
                    // Played on the press, not the release (a drum); a keyboard's Enter or Space goes through onClick.
                    event.preventDefault();
                    onPress(pad);
                  }}
                  onClick={(event) => {
                    if (event.detail === 0) onPress(pad);
                  }}
                  bg={state === 'pressed' ? 'purple.600' : state === 'remote' ? 'teal.700' : undefined}
                  color={state === 'idle' ? undefined : 'white'}
                  borderColor={state === 'remote' ? 'teal.400' : undefined}
                  transform={state === 'remote' ? 'scale(1.04)' : undefined}
                  transition="background 60ms, transform 60ms"
                  data-testid={padTestId(pad)}
                  data-state={state}
                  data-remote-hits={remoteHits[pad]}
                  aria-label={pad}
                >
                  <Box as="span" fontWeight="semibold">
                    {pad}
                  </Box>
                </Button>
              );
            })}
          </SimpleGrid>
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
