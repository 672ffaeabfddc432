import { Box, Button, Card, Grid, HStack, Heading, Stack, Text } from '@chakra-ui/react';
import { Play, Square, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { DRUMS, type DrumId } from '../../instruments/drumKit';
import { instrumentRack, onInstrumentRack, type InstrumentRack } from '../../instruments/instrumentRack';
import { BPM_DEFAULT, BPM_MAX, BPM_MIN, clampBpm, defaultPattern, emptyPattern, SEQUENCER_ROWS, STEPS, type Pattern } from '../../instruments/sequencer';
import { useKeys } from './useKeys';

const HIT_MS = 150;

/** The drum machine: 12 pads with key hints, a 16-step sequencer for the first four, BPM, Play/Stop, Clear. */
export function DrumMachinePanel() {
  const [pattern, setPattern] = useState<Pattern>(defaultPattern);
  const [bpm, setBpm] = useState(BPM_DEFAULT);
  const [playing, setPlaying] = useState(false);
  const [step, setStep] = useState(-1);
  const [hit, setHit] = useState<DrumId | null>(null);

  // The rack exists only after a user gesture; once it does, follow its step and play this pattern.
  useEffect(() => {
    const offs: Array<() => void> = [];
    offs.push(
      onInstrumentRack((rack) => {
        offs.push(rack.onStep(setStep), rack.onOwner((owner) => setPlaying(owner === 'sequencer')));
        setPlaying(rack.owner === 'sequencer');
      }),
    );
    return () => offs.forEach((off) => off());
  }, []);

  const withRack = (use: (rack: InstrumentRack) => void) => void instrumentRack().then(use);

  const strike = (id: DrumId) => {
    setHit(id);
    setTimeout(() => setHit((current) => (current === id ? null : current)), HIT_MS);
    withRack((rack) => rack.kit.trigger(id));
  };

  useKeys((key) => {
    const drum = DRUMS.find((d) => d.key === key);
    if (!drum) return false;
    strike(drum.id);
    return true;
  });

  const toggleStep = (row: DrumId, index: number) => {
    const next = { ...pattern, [row]: pattern[row].map((on, i) => (i === index ? !on : on)) };
    setPattern(next);
    withRack((rack) => (rack.sequencer.pattern = next));
  };

  const changeBpm = (value: number) => {
    const next = clampBpm(value);
    setBpm(next);
    withRack((rack) => (rack.sequencer.bpm = next));
  };

  const togglePlay = () =>
    withRack((rack) => {
      if (rack.owner === 'sequencer') return rack.stopAll();
      rack.sequencer.pattern = pattern;
      rack.sequencer.bpm = bpm;
      rack.playPattern();
    });

  const clear = () => {
    const next = emptyPattern();
    setPattern(next);
    withRack((rack) => (rack.sequencer.pattern = next));
  };

  return (
    <Card.Root data-testid="drum-machine">
      <Card.Body gap="4">
        <Heading size="md">Drum Machine</Heading>
        <Grid templateColumns="repeat(auto-fill, minmax(88px, 1fr))" gap="2">
          {DRUMS.map((drum) => (
            <Button
              key={drum.id}
              h="16"
              variant={hit === drum.id ? 'solid' : 'subtle'}
              colorPalette="purple"
              onPointerDown={() => strike(drum.id)}
              data-testid={`drum-pad-${drum.id}`}
              data-active={hit === drum.id}
            >
              <Stack gap="0" align="center">
                <Text fontSize="sm">{drum.name}</Text>
                <Text fontSize="xs" color="fg.muted" fontFamily="mono">
                  {drum.key}
                </Text>
              </Stack>
            </Button>
          ))}
        </Grid>

        <Stack gap="1" data-testid="sequencer">
          {SEQUENCER_ROWS.map((row) => (
            <HStack key={row} gap="1">
              <Text w="20" fontSize="xs" flexShrink={0}>
                {DRUMS.find((d) => d.id === row)!.name}
              </Text>
              {Array.from({ length: STEPS }, (_, index) => (
                <Box
                  key={index}
                  as="button"
                  aria-label={`${row} step ${index + 1}`}
                  aria-pressed={pattern[row][index]}
                  flex="1"
                  h="6"
                  rounded="sm"
                  borderWidth="1px"
                  borderColor={index === step ? 'yellow.400' : index % 4 === 0 ? 'border.emphasized' : 'border'}
                  bg={pattern[row][index] ? 'purple.500' : index === step ? 'yellow.subtle' : 'bg.muted'}
                  onClick={() => toggleStep(row, index)}
                  data-current={index === step}
                />
              ))}
            </HStack>
          ))}
        </Stack>

        <HStack gap="3" wrap="wrap">
          <Button size="sm" colorPalette="purple" onClick={togglePlay}>
            {playing ? <Square /> : <Play />} {playing ? 'Stop Pattern' : 'Play Pattern'}
          </Button>
          <Button size="sm" variant="outline" onClick={clear}>
            <Trash2 /> Clear Pattern
          </Button>
          <HStack flex="1" minW="48">
            <Text fontSize="sm" whiteSpace="nowrap">
              BPM
            </Text>
            <input
              type="range"
              aria-label="BPM"
              min={BPM_MIN}
              max={BPM_MAX}
              step={1}
              value={bpm}
              onChange={(event) => changeBpm(Number(event.target.value))}
              style={{ flex: 1, accentColor: 'var(--chakra-colors-purple-500)' }}
            />
            <Text fontSize="sm" fontFamily="mono" w="10" data-testid="bpm-value">
              {bpm}
            </Text>
          </HStack>
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}
