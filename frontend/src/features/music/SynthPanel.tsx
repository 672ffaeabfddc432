import { Box, Card, Flex, Heading, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useEffect, useRef, useState } from 'react';
import { listenToInputs, midiAccess, type MidiInputDevice } from '../../instruments/midiInput';
import { instrumentRack, onInstrumentRack } from '../../instruments/instrumentRack';
import { BASE_MIDI_NOTE, KEY_TO_SEMITONE, SYNTH_DEFAULTS, SYNTH_LIMITS, WAVEFORMS, type SynthSettings, type Waveform } from '../../instruments/synth';
import { useKeys } from './useKeys';

const NOTE_NAMES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'];
/** Two octaves on screen, C4–B5. */
const KEYBOARD = Array.from({ length: 24 }, (_, i) => BASE_MIDI_NOTE + i);
const SEMITONE_TO_KEY = Object.fromEntries(Object.entries(KEY_TO_SEMITONE).map(([key, semitone]) => [semitone, key]));
const noteName = (midi: number) => `${NOTE_NAMES[midi % 12]}${Math.floor(midi / 12) - 1}`;
const isBlack = (midi: number) => NOTE_NAMES[midi % 12]!.includes('#');

const CONTROLS: Array<{ key: keyof typeof SYNTH_LIMITS; label: string; unit?: string }> = [
  { key: 'cutoff', label: 'Filter cutoff', unit: 'Hz' },
  { key: 'attack', label: 'Attack', unit: 's' },
  { key: 'decay', label: 'Decay', unit: 's' },
  { key: 'sustain', label: 'Sustain' },
  { key: 'release', label: 'Release', unit: 's' },
  { key: 'volume', label: 'Volume' },
];

const WHITE_KEYS = KEYBOARD.filter((midi) => !isBlack(midi)).length;

/** One key: white keys share the row, black keys sit over the gap after the white key below them. */
function PianoKey({ midi, down, onDown, onUp }: { midi: number; down: boolean; onDown: () => void; onUp: () => void }) {
  const black = isBlack(midi);
  const width = 100 / WHITE_KEYS;
  const whiteBefore = KEYBOARD.filter((m) => !isBlack(m) && m < midi).length;
  const placement = black
    ? { position: 'absolute' as const, top: '0', h: '60%', w: `${width * 0.6}%`, zIndex: 1, style: { left: `${width * (whiteBefore - 0.3)}%` } }
    : { flex: '1', borderWidth: '1px', display: 'flex', alignItems: 'flex-end', justifyContent: 'center', pb: '1' };
  return (
    <Box
      as="button"
      aria-label={noteName(midi)}
      {...placement}
      roundedBottom={black ? 'sm' : 'md'}
      bg={down ? (black ? 'purple.500' : 'purple.300') : black ? 'gray.900' : 'white'}
      color={black ? 'gray.300' : 'gray.600'}
      fontSize="xs"
      onPointerDown={onDown}
      onPointerUp={onUp}
      onPointerLeave={onUp}
    >
      {SEMITONE_TO_KEY[midi - BASE_MIDI_NOTE]?.toUpperCase() ?? ''}
    </Box>
  );
}

/** The synthesizer: on-screen and computer keys, Web MIDI input, waveform, filter, ADSR, volume. */
export function SynthPanel() {
  const [settings, setSettings] = useState<SynthSettings>(SYNTH_DEFAULTS);
  const [held, setHeld] = useState<Set<number>>(new Set());
  const [devices, setDevices] = useState<MidiInputDevice[] | null>(null);
  const [midiMessage, setMidiMessage] = useState<string | null>(null);
  // The notes sounding now, updated synchronously: a MIDI note-off can arrive before React re-renders.
  const sounding = useRef(new Set<number>());

  const noteOn = (midi: number, velocity = 1) => {
    sounding.current.add(midi);
    setHeld(new Set(sounding.current));
    void instrumentRack().then((rack) => rack.synth.noteOn(midi, velocity));
  };
  const noteOff = (midi: number) => {
    if (!sounding.current.delete(midi)) return;
    setHeld(new Set(sounding.current));
    void instrumentRack().then((rack) => rack.synth.noteOff(midi));
  };

  // A key released while the window has no focus never sends keyup: let everything go.
  useEffect(() => {
    const releaseAll = () => [...sounding.current].forEach(noteOff);
    window.addEventListener('blur', releaseAll);
    return () => window.removeEventListener('blur', releaseAll);
    // noteOff only touches the ref and state setters, so the first one stays correct.
  }, []);

  useKeys(
    (key) => {
      const semitone = KEY_TO_SEMITONE[key];
      if (semitone === undefined) return false;
      noteOn(BASE_MIDI_NOTE + semitone);
      return true;
    },
    (key) => {
      const semitone = KEY_TO_SEMITONE[key];
      if (semitone !== undefined) noteOff(BASE_MIDI_NOTE + semitone);
    },
  );

  // The synth keeps these settings whenever the rack exists (or comes to).
  useEffect(() => onInstrumentRack((rack) => rack.synth.apply(settings)), [settings]);

  // Web MIDI input devices: notes from every device play the synth.
  useEffect(() => {
    let stop: (() => void) | undefined;
    let cancelled = false;
    void midiAccess().then((result) => {
      if (cancelled) return;
      if (!result.ok) return setMidiMessage(result.message);
      stop = listenToInputs(
        result.access,
        ({ type, note, velocity }) => (type === 'on' ? noteOn(note, velocity) : noteOff(note)),
        setDevices,
      );
    });
    return () => {
      cancelled = true;
      stop?.();
    };
    // Attached once: noteOn/noteOff only use state setters and refs, so the first ones stay correct.
  }, []);

  const change = <K extends keyof SynthSettings>(key: K, value: SynthSettings[K]) => setSettings((current) => ({ ...current, [key]: value }));

  return (
    <Card.Root data-testid="synth">
      <Card.Body gap="4">
        <HStack justify="space-between" wrap="wrap">
          <Heading size="md">Synthesizer</Heading>
          <HStack>
            <Text fontSize="sm">Waveform</Text>
            <select
              aria-label="Waveform"
              value={settings.waveform}
              onChange={(event) => change('waveform', event.target.value as Waveform)}
              style={{ padding: '4px 8px', borderRadius: 6, background: 'transparent', border: '1px solid var(--chakra-colors-border)' }}
            >
              {WAVEFORMS.map((waveform) => (
                <option key={waveform} value={waveform}>
                  {waveform}
                </option>
              ))}
            </select>
          </HStack>
        </HStack>

        <Flex position="relative" h="32" userSelect="none" data-testid="keyboard" onPointerLeave={() => held.forEach(noteOff)}>
          {KEYBOARD.map((midi) => (
            <PianoKey key={midi} midi={midi} down={held.has(midi)} onDown={() => noteOn(midi)} onUp={() => noteOff(midi)} />
          ))}
        </Flex>

        <SimpleGrid columns={{ base: 1, md: 3 }} gap="3">
          {CONTROLS.map(({ key, label, unit }) => {
            const limits = SYNTH_LIMITS[key];
            return (
              <Stack key={key} gap="1">
                <HStack justify="space-between" fontSize="sm">
                  <Text>{label}</Text>
                  <Text fontFamily="mono">
                    {settings[key]}
                    {unit ? ` ${unit}` : ''}
                  </Text>
                </HStack>
                <input
                  type="range"
                  aria-label={label}
                  min={limits.min}
                  max={limits.max}
                  step={limits.step}
                  value={settings[key]}
                  onChange={(event) => change(key, Number(event.target.value))}
                  style={{ accentColor: 'var(--chakra-colors-purple-500)' }}
                />
              </Stack>
            );
          })}
        </SimpleGrid>

        <Text fontSize="xs" color="fg.muted" data-testid="midi-inputs">
          {midiMessage ?? (devices === null ? 'Looking for MIDI devices…' : devices.length ? `MIDI in: ${devices.map((d) => d.name).join(', ')}` : 'No MIDI input devices connected')}
        </Text>
      </Card.Body>
    </Card.Root>
  );
}
