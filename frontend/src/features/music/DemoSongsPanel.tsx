import { Button, Card, Heading, SimpleGrid, Text } from '@chakra-ui/react';
import { Play, Square } from 'lucide-react';
import { useEffect, useState } from 'react';
import { DEMO_SONGS } from '../../instruments/demoSongs';
import { instrumentRack, onInstrumentRack } from '../../instruments/instrumentRack';

/** The demo songs: Basic Beat, Melody & Chords, Full Track. */
export function DemoSongsPanel() {
  const [playing, setPlaying] = useState<string | null>(null);

  useEffect(() => {
    const offs: Array<() => void> = [];
    offs.push(
      onInstrumentRack((rack) => {
        setPlaying(rack.demoPlaying?.id ?? null);
        offs.push(rack.onOwner(() => setPlaying(rack.demoPlaying?.id ?? null)));
      }),
    );
    return () => offs.forEach((off) => off());
  }, []);

  return (
    <SimpleGrid columns={{ base: 1, md: 3 }} gap="4" data-testid="demo-songs">
      {DEMO_SONGS.map((song) => (
        <Card.Root key={song.id} data-testid={`demo-${song.id}`}>
          <Card.Body gap="2">
            <Heading size="md">{song.name}</Heading>
            <Text fontSize="sm" color="fg.muted">
              {song.description}
            </Text>
            <Text fontSize="xs" fontFamily="mono">
              {song.bpm} BPM
            </Text>
            <Button
              size="sm"
              colorPalette="purple"
              variant={playing === song.id ? 'solid' : 'outline'}
              onClick={() => void instrumentRack().then((rack) => (playing === song.id ? rack.stopAll() : rack.playDemo(song)))}
            >
              {playing === song.id ? <Square /> : <Play />} {playing === song.id ? 'Stop' : 'Play'}
            </Button>
          </Card.Body>
        </Card.Root>
      ))}
    </SimpleGrid>
  );
}
