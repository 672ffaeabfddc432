import { Box, Button, Card, Grid, Heading, HStack, Input, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import type { StemType } from '../../api/mediaTypes';
import { ensureAudioContext, onAudioContext } from '../../audio/audioContext';
import { masterBus, type MasterEffect } from '../../audio/masterEffects';
import { studioPlayer } from '../../audio/studioPlayer';
import { useAppSelector } from '../../app/hooks';
import { controlOutputs, type MidiOutputDevice } from '../../instruments/controlOutputs';
import { DEFAULT_OSC_TARGET, parseTarget, type OscBridgeStatus } from '../../instruments/oscBridgeClient';
import { useLiveChannel } from '../live/useLiveConnection';
import { useStudioProject } from '../project/StudioProjectContext';
import { OscBridgeStatusLine } from './OscBridgeStatusLine';

/** A hit pad lights for 150 ms; every hit is sent at velocity 127. */
const HIGHLIGHT_MS = 150;
const VELOCITY = 127;

type Pad = { name: string; stem?: StemType; effect?: MasterEffect };
const PADS: Pad[] = [
  { name: 'Vocals', stem: 'vocals' },
  { name: 'Drums', stem: 'drums' },
  { name: 'Bass', stem: 'bass' },
  { name: 'Other', stem: 'other' },
  { name: 'Filter', effect: 'filter' },
  { name: 'Reverb', effect: 'reverb' },
  { name: 'Delay', effect: 'delay' },
  { name: 'Distort', effect: 'distort' },
];

type StemMode = 'trigger' | 'stutter' | 'toggle';
const MODE_HELP: Record<StemMode, string> = {
  trigger: 'play one beat of their stem from the playhead',
  stutter: 'repeat the current 16th of their stem four times',
  toggle: 'mute or unmute their stem in the mix',
};

function useLatencyMs(): number | null {
  const [latency, setLatency] = useState<number | null>(null);
  useEffect(() => {
    let timer: ReturnType<typeof setInterval> | undefined;
    const off = onAudioContext((context) => {
      const measure = () => setLatency(Math.round((context.baseLatency + (context.outputLatency || 0)) * 1000 * 10) / 10);
      measure();
      timer = setInterval(measure, 1000);
    });
    return () => {
      off();
      clearInterval(timer);
    };
  }, []);
  return latency;
}

/** The pad performance view: stems and master effects, OSC/MIDI out with their true state, measured metrics. */
export function PerformancePads() {
  const live = useLiveChannel();
  const project = useStudioProject();
  const { project: current, stems } = useAppSelector((s) => s.project);
  const [lit, setLit] = useState<Set<string>>(new Set());
  const [mode, setMode] = useState<StemMode>('trigger');
  const [target, setTarget] = useState(DEFAULT_OSC_TARGET);
  const [targetError, setTargetError] = useState<string | null>(null);
  const [bridge, setBridge] = useState<OscBridgeStatus>(controlOutputs.osc.status);
  const [midi, setMidi] = useState<{ devices: MidiOutputDevice[] } | { message: string } | null>(null);
  const [sent, setSent] = useState(controlOutputs.sent);
  const latency = useLatencyMs();

  useEffect(() => {
    // Looks for the bridge only while the pads are on screen (and only once the person turned OSC output on).
    const offs = [controlOutputs.osc.watch(), controlOutputs.osc.onStatus(setBridge), controlOutputs.onSent(setSent)];
    void controlOutputs.midiOutputs().then((result) => setMidi(result.ok ? { devices: result.devices } : { message: result.message }));
    return () => offs.forEach((off) => off());
  }, []);

  const light = (name: string) => {
    setLit((current) => new Set(current).add(name));
    setTimeout(() => setLit((current) => new Set([...current].filter((n) => n !== name))), HIGHLIGHT_MS);
  };

  const press = (pad: Pad, index: number) => {
    light(pad.name);
    if (live?.send({ type: 'pad_trigger', pad: pad.name, velocity: VELOCITY })) controlOutputs.notePadMessage();
    controlOutputs.pad(pad.name, index, VELOCITY);
    if (pad.effect) masterBus(ensureAudioContext()).set(pad.effect, true);
    if (!pad.stem) return;
    const beat = 60 / (current?.bpm ?? 120);
    if (mode === 'trigger') studioPlayer.playSlice(pad.stem, beat);
    if (mode === 'stutter') studioPlayer.playSlice(pad.stem, beat / 4, 4);
    if (mode === 'toggle') {
      const stem = stems.find((s) => s.type === pad.stem);
      if (stem) project.changeStem(stem.id, { muted: !stem.muted });
    }
  };

  const release = (pad: Pad) => {
    if (pad.effect) masterBus(ensureAudioContext()).set(pad.effect, false);
  };

  const applyTarget = () => {
    const parsed = parseTarget(target);
    if ('error' in parsed) return setTargetError(parsed.error);
    setTargetError(null);
    controlOutputs.osc.setTarget(parsed);
  };

  return (
    <Card.Root data-testid="performance-pads">
      <Card.Body gap="4">
        <HStack justify="space-between" wrap="wrap">
          <Heading size="md">Performance Pads</Heading>
          <HStack>
            <Text fontSize="sm">Stem pads</Text>
            <select
              aria-label="Stem pad mode"
              value={mode}
              onChange={(event) => setMode(event.target.value as StemMode)}
              style={{ padding: '4px 8px', borderRadius: 6, background: 'transparent', border: '1px solid var(--chakra-colors-border)' }}
            >
              <option value="trigger">Trigger</option>
              <option value="stutter">Stutter</option>
              <option value="toggle">Toggle</option>
            </select>
          </HStack>
        </HStack>
        <Text fontSize="xs" color="fg.muted">
          Stem pads {MODE_HELP[mode]}{stems.length ? '' : ' (load a project with stems first)'}; effect pads act on the master while held.
        </Text>
        <Grid templateColumns="repeat(4, 1fr)" gap="3">
          {PADS.map((pad, index) => (
            <Button
              key={pad.name}
              h="20"
              colorPalette={pad.effect ? 'cyan' : 'purple'}
              variant={lit.has(pad.name) ? 'solid' : 'subtle'}
              data-testid={`pad-${pad.name.toLowerCase()}`}
              data-lit={lit.has(pad.name)}
              onPointerDown={() => press(pad, index)}
              onPointerUp={() => release(pad)}
              onPointerLeave={() => release(pad)}
            >
              {pad.name}
            </Button>
          ))}
        </Grid>

        <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
          <Stack gap="2">
            <Text fontSize="sm" fontWeight="medium">
              OSC out (TouchDesigner, Resolume)
            </Text>
            <HStack>
              <Input size="sm" aria-label="OSC target" value={target} onChange={(event) => setTarget(event.target.value)} onKeyDown={(event) => event.key === 'Enter' && applyTarget()} />
              <Button size="sm" variant="outline" onClick={applyTarget}>
                Apply
              </Button>
            </HStack>
            {targetError && (
              <Text fontSize="xs" color="red.400">
                {targetError}
              </Text>
            )}
            <OscBridgeStatusLine bridge={bridge} />
          </Stack>
          <Stack gap="2">
            <Text fontSize="sm" fontWeight="medium">
              MIDI out (DAWs, VJ software)
            </Text>
            {midi && 'devices' in midi ? (
              <select
                aria-label="MIDI output"
                onChange={(event) => void controlOutputs.selectMidiOutput(event.target.value || null)}
                style={{ padding: '4px 8px', borderRadius: 6, background: 'transparent', border: '1px solid var(--chakra-colors-border)' }}
              >
                <option value="">{midi.devices.length ? 'No MIDI output' : 'No MIDI output devices connected'}</option>
                {midi.devices.map((device) => (
                  <option key={device.id} value={device.id}>
                    {device.name}
                  </option>
                ))}
              </select>
            ) : (
              <Text fontSize="xs" color="fg.muted" data-testid="midi-out-message">
                {midi?.message ?? 'Looking for MIDI devices…'}
              </Text>
            )}
            <Text fontSize="xs" color="fg.muted">
              Beats: note 36 velocity 127 · transport 250/251/252 · clock 24 per quarter note while playing · pads: notes 48–55
            </Text>
          </Stack>
        </SimpleGrid>

        <SimpleGrid columns={{ base: 2, md: 4 }} gap="3" data-testid="pad-metrics">
          {[
            ['BPM', current?.bpm != null ? String(current.bpm) : '—'],
            ['Key', current?.key ?? '—'],
            ['Latency', latency === null ? '—' : `${latency} ms`],
            ['Events sent', String(sent)],
          ].map(([label, value]) => (
            <Box key={label} borderWidth="1px" rounded="md" p="2">
              <Text fontSize="xs" color="fg.muted">
                {label}
              </Text>
              <Text fontFamily="mono" data-testid={`metric-${label!.toLowerCase().replace(' ', '-')}`}>
                {value}
              </Text>
            </Box>
          ))}
        </SimpleGrid>
      </Card.Body>
    </Card.Root>
  );
}
