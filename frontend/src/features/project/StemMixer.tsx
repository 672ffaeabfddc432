import { Badge, Box, Button, Card, HStack, IconButton, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Headphones, RotateCcw, Volume2, VolumeX } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { STEM_VOLUME_MAX_DB, STEM_VOLUME_MIN_DB, STEM_VOLUME_STEP_DB } from '@stemdeck/proto/vocabulary';
import { ENGINE_NAMES, type EngineInfo, type EngineName } from '../../api/mediaTypes';
import { useAppSelector } from '../../app/hooks';
import { studioPlayer } from '../../audio/studioPlayer';
import { useListEnginesQuery } from './projectsApi';
import { useStudioProject } from './StudioProjectContext';
import type { MixerStem } from './stems';

/** Meters refresh every 100 ms, from each stem's analyser (never random). */
const METER_MS = 100;

function useStemLevels(): Record<string, number> {
  const [levels, setLevels] = useState<Record<string, number>>({});
  useEffect(() => {
    const timer = setInterval(() => setLevels(studioPlayer.levels()), METER_MS);
    return () => clearInterval(timer);
  }, []);
  return levels;
}

/** Which recording the player holds for each stem (its url), read as often as the meters. */
function usePlayerSources(): Record<string, string> {
  const [sources, setSources] = useState<Record<string, string>>({});
  useEffect(() => {
    const timer = setInterval(() => {
      const next = studioPlayer.sources();
      setSources((previous) => (JSON.stringify(previous) === JSON.stringify(next) ? previous : next));
    }, METER_MS);
    return () => clearInterval(timer);
  }, []);
  return sources;
}

/** Original / Enhanced, for a stem that has an enhanced version: which one the mixer plays. */
function VersionSwitch({ stem }: { stem: MixerStem }) {
  const project = useStudioProject();
  return (
    <HStack gap="0" role="group" aria-label={`${stem.type} version`} data-testid={`version-${stem.type}`} data-version={stem.version}>
      {(['original', 'enhanced'] as const).map((version) => (
        <Button
          key={version}
          size="2xs"
          variant={stem.version === version ? 'solid' : 'outline'}
          colorPalette={stem.version === version ? 'purple' : 'gray'}
          aria-pressed={stem.version === version}
          onClick={() => void project.switchVersion(stem.id, version)}
        >
          {version === 'original' ? 'Original' : 'Enhanced'}
        </Button>
      ))}
    </HStack>
  );
}

/** RMS on a −60…0 dBFS scale. */
const meterPercent = (rms: number): number => (rms > 0 ? Math.min(100, Math.max(0, ((20 * Math.log10(rms) + 60) / 60) * 100)) : 0);


function ToggleButton({ label, on, palette, onToggle, children }: { label: string; on: boolean; palette: string; onToggle: () => void; children: ReactNode }) {
  return (
    <IconButton aria-label={label} aria-pressed={on} size="xs" variant={on ? 'solid' : 'outline'} colorPalette={on ? palette : 'gray'} onClick={onToggle}>
      {children}
    </IconButton>
  );
}

function StemCard({ stem, level, source }: { stem: MixerStem; level: number; source: string | undefined }) {
  const project = useStudioProject();
  return (
    <Card.Root size="sm" data-testid={`stem-${stem.type}`} data-source={source}>
      <Card.Body gap="3">
        <HStack justify="space-between">
          <Text fontWeight="semibold" textTransform="capitalize">
            {stem.type}
          </Text>
          {/* Which engine made the stem, said plainly: nothing here measures how well it separated. */}
          {stem.engine && (
            <Badge colorPalette="gray" data-testid={`quality-${stem.type}`}>
              engine: {stem.engine}
            </Badge>
          )}
        </HStack>
        {stem.enhanced && <VersionSwitch stem={stem} />}
        <HStack gap="1">
          <ToggleButton label={`Mute ${stem.type}`} on={stem.muted} palette="red" onToggle={() => project.changeStem(stem.id, { muted: !stem.muted })}>
            {stem.muted ? <VolumeX /> : <Volume2 />}
          </ToggleButton>
          <ToggleButton label={`Solo ${stem.type}`} on={stem.soloed} palette="yellow" onToggle={() => project.changeStem(stem.id, { soloed: !stem.soloed })}>
            <Headphones />
          </ToggleButton>
          <Text fontSize="xs" fontFamily="mono" ms="auto" data-testid={`volume-${stem.type}`}>
            {stem.volume > 0 ? '+' : ''}
            {stem.volume.toFixed(1)} dB
          </Text>
        </HStack>
        <input
          type="range"
          aria-label={`${stem.type} volume`}
          min={STEM_VOLUME_MIN_DB}
          max={STEM_VOLUME_MAX_DB}
          step={STEM_VOLUME_STEP_DB}
          value={stem.volume}
          style={{ width: '100%', accentColor: 'var(--chakra-colors-purple-500)' }}
          onChange={(event) => project.changeStem(stem.id, { volume: Number(event.target.value) })}
        />
        <Box h="2" bg="bg.muted" rounded="full" overflow="hidden" data-testid={`meter-${stem.type}`} data-level={level.toFixed(4)}>
          <Box h="full" bg={level > 0.7 ? 'red.500' : level > 0.25 ? 'yellow.500' : 'green.500'} style={{ width: `${meterPercent(level)}%`, transition: 'width 90ms linear' }} />
        </Box>
      </Card.Body>
    </Card.Root>
  );
}

/** The engine as the menu lists it, with what it measured on songs it never saw (e.g. "hybrid · 6.1 dB · 30× real time"). */
export function engineLabel(name: EngineName, info: EngineInfo | undefined): string {
  if (info && !info.available) return `${name} (unavailable)`;
  if (!info?.measured) return name;
  return `${name} · ${info.measured.heldOutSdrDb.toFixed(1)} dB · ${Math.round(info.measured.realTimeFactor)}× real time`;
}

function engineTitle(info: EngineInfo | undefined): string | undefined {
  if (!info?.measured) return undefined;
  return `Separation quality on test songs it was never tuned on: ${info.measured.heldOutSdrDb.toFixed(1)} dB (higher is cleaner). Runs ${Math.round(info.measured.realTimeFactor)} times faster than the song plays.`;
}

/** The stem mixer: original/enhanced version, mute, solo, dB volume, analyser meters, engine choice, Reprocess, Reset. */
export function StemMixer() {
  const { stems, project: current, jobs, decodedVersion } = useAppSelector((s) => s.project);
  const project = useStudioProject();
  const levels = useStemLevels();
  const sources = usePlayerSources();
  const { data: engines = [] } = useListEnginesQuery();
  const [engine, setEngine] = useState<EngineName>(current?.activeEngine ?? 'fast');
  const info = engines.find((e) => e.engine === engine);
  const running = Object.values(jobs).some((job) => job?.status === 'running');

  return (
    <Stack gap="3" data-testid="stem-mixer" data-decoded={decodedVersion > 0}>
      <HStack justify="space-between" wrap="wrap" gap="3">
        <Text fontWeight="semibold">Stem mixer{current?.activeEngine ? ` · ${current.activeEngine} engine` : ''}</Text>
        <HStack gap="2">
          <select
            aria-label="Separation engine"
            value={engine}
            onChange={(event) => setEngine(event.target.value as EngineName)}
            style={{ padding: '4px 8px', borderRadius: 6, background: 'transparent', border: '1px solid var(--chakra-colors-border)' }}
          >
            {ENGINE_NAMES.map((name) => {
              const known = engines.find((e) => e.engine === name);
              return (
                <option key={name} value={name} disabled={known ? !known.available : false} title={known?.reason ?? engineTitle(known)}>
                  {engineLabel(name, known)}
                </option>
              );
            })}
          </select>
          <Button size="sm" variant="outline" disabled={!info?.available || running} onClick={() => void project.reprocess(engine)}>
            Reprocess
          </Button>
          <Button size="sm" variant="ghost" onClick={() => project.resetMix()}>
            <RotateCcw /> Reset
          </Button>
        </HStack>
      </HStack>
      {engines
        .filter((e) => !e.available)
        .map((e) => (
          <Text key={e.engine} fontSize="xs" color="fg.muted" data-testid={`engine-unavailable-${e.engine}`}>
            {e.reason ?? `${e.engine} engine not available`}
          </Text>
        ))}
      <SimpleGrid columns={{ base: 1, sm: 2, xl: 4 }} gap="3">
        {stems.map((stem) => (
          <StemCard key={stem.id} stem={stem} level={levels[stem.id] ?? 0} source={sources[stem.id]} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
