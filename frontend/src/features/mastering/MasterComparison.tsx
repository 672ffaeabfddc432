import { Button, HStack, Stack, Switch, Text } from '@chakra-ui/react';
import { skipToken } from '@reduxjs/toolkit/query';
import { Pause, Play } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useAppSelector } from '../../app/hooks';
import { ensureAudioContext } from '../../audio/audioContext';
import { effectiveGain } from '../../audio/stemGain';
import { projectsApi } from '../project/projectsApi';
import type { MixerStem } from '../project/stems';
import { AbPlayer, type AbSide } from './abPlayer';
import type { LoudnessFigures } from './jobsApi';
import { loudnessMatchGains } from './masteringState';

const LEVEL_MS = 100;

const formatTime = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

/**
 * Original (the project's stems, summed with the mix) against Master, sample-aligned, with "Match loudness"
 * turning the louder one down by the measured difference of integrated loudness.
 */
export function MasterComparison({ projectId, masterUrl, before, after }: { projectId: string; masterUrl: string; before: LoudnessFigures; after: LoudnessFigures }) {
  const openStems = useAppSelector((state) => (state.project.project?.id === projectId && state.project.partialSeconds === null ? state.project.stems : null));
  const { data: storedStems } = projectsApi.useProjectStemsQuery(openStems?.length ? skipToken : { projectId });
  const stems: MixerStem[] = openStems?.length ? openStems : (storedStems ?? []);

  const player = useMemo(() => new AbPlayer(ensureAudioContext), []);
  useEffect(() => () => player.dispose(), [player]);
  // Re-render on the player's play state, side and loads.
  const [version, setVersion] = useState(0);
  useEffect(() => player.onChange(() => setVersion((v) => v + 1)), [player]);

  const [side, setSide] = useState<AbSide>('master');
  const [match, setMatch] = useState(true);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const [clock, setClock] = useState({ position: 0, level: 0 });
  const gains = loudnessMatchGains(before, after, match);

  useEffect(() => player.listen(side, gains), [player, side, gains.original, gains.master]); // eslint-disable-line react-hooks/exhaustive-deps

  // A new master (or other stems) is loaded afresh on the next Play.
  const sourceKey = `${masterUrl}|${stems.map((s) => `${s.url}:${s.volume}:${s.muted}:${s.soloed}`).join(',')}`;
  const [loadedKey, setLoadedKey] = useState<string | null>(null);

  useEffect(() => {
    if (!player.playing) return;
    const timer = setInterval(() => setClock({ position: player.position, level: player.level() }), LEVEL_MS);
    return () => clearInterval(timer);
  }, [player, version]);

  const play = async () => {
    setFailed(null);
    try {
      if (loadedKey !== sourceKey) {
        setLoading(true);
        const anySoloed = stems.some((stem) => stem.soloed);
        const loaded = await player.load(
          stems.map((stem) => ({ url: stem.url, gain: effectiveGain(stem, anySoloed) })),
          masterUrl,
        );
        if (!loaded) return;
        setLoadedKey(sourceKey);
        player.listen(side, gains);
      }
      await player.play();
    } catch (error) {
      setFailed((error as Error).message || 'Could not play the master');
    } finally {
      setLoading(false);
    }
  };

  const differenceDb = after.integratedLufs - before.integratedLufs;
  return (
    <Stack gap="3" data-testid="ab-player" data-playing={player.playing} data-side={side}>
      <HStack gap="3" wrap="wrap">
        <Button
          size="sm"
          colorPalette="purple"
          onClick={() => (player.playing ? player.pause() : void play())}
          loading={loading}
          loadingText="Loading..."
          aria-label={player.playing ? 'Pause comparison' : 'Play comparison'}
        >
          {player.playing ? <Pause /> : <Play />} {player.playing ? 'Pause' : 'Play'}
        </Button>
        <HStack gap="0" role="group" aria-label="Listen to">
          {(['original', 'master'] as const).map((which) => (
            <Button key={which} size="sm" variant={side === which ? 'solid' : 'outline'} aria-pressed={side === which} onClick={() => setSide(which)}>
              {which === 'original' ? 'Original' : 'Master'}
            </Button>
          ))}
        </HStack>
        <Switch.Root checked={match} onCheckedChange={(event) => setMatch(event.checked)} size="sm">
          <Switch.HiddenInput />
          <Switch.Control />
          <Switch.Label>Match loudness</Switch.Label>
        </Switch.Root>
        <Text fontSize="sm" fontFamily="mono" data-testid="ab-position" data-seconds={clock.position.toFixed(2)} data-level={clock.level.toFixed(4)}>
          {formatTime(clock.position)} / {formatTime(player.duration)}
        </Text>
      </HStack>
      <Text fontSize="xs" color="fg.muted" data-testid="ab-match-note">
        {match
          ? `The ${differenceDb > 0 ? 'master' : 'original'} plays ${Math.abs(differenceDb).toFixed(1)} dB quieter, so you compare the sound, not the loudness.`
          : `The master is ${Math.abs(differenceDb).toFixed(1)} dB ${differenceDb >= 0 ? 'louder' : 'quieter'} than the original.`}
      </Text>
      {failed && (
        <Text color="fg.error" fontSize="sm">
          {failed}
        </Text>
      )}
    </Stack>
  );
}
