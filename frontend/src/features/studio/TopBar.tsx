import { Box, Flex, HStack, IconButton, Text } from '@chakra-ui/react';
import { Menu, Pause, Play, Square } from 'lucide-react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { formatTime } from '../../lib/format';
import { toaster } from '../../ui/toaster';
import { paused, played, stopped } from '../transport/transportSlice';
import { CpuMeter } from './CpuMeter';

export function TopBar({ onOpenMenu }: { onOpenMenu: () => void }) {
  const dispatch = useAppDispatch();
  const { file, status } = useAppSelector((state) => state.transport);
  const playing = status === 'playing';

  const play = () => {
    if (!file) {
      toaster.create({ title: 'No audio loaded', description: 'Please load an audio file first', type: 'error' });
      return;
    }
    dispatch(played());
  };

  return (
    <Flex as="header" h="14" px="4" align="center" gap="3" borderBottomWidth="1px" bg="bg.panel">
      <IconButton aria-label="Open menu" variant="ghost" size="sm" display={{ base: 'inline-flex', lg: 'none' }} onClick={onOpenMenu}>
        <Menu />
      </IconButton>
      <Box flex="1" minW="0">
        <Text fontSize="sm" fontWeight="medium" truncate data-testid="current-file">
          {file ? file.name : 'No file loaded'}
        </Text>
        {file && (
          <Text fontSize="xs" color="fg.muted" data-testid="current-duration">
            {formatTime(file.duration)}
          </Text>
        )}
      </Box>
      <HStack gap="1">
        <IconButton aria-label="Play" size="sm" colorPalette="purple" disabled={playing} onClick={play}>
          <Play />
        </IconButton>
        <IconButton aria-label="Pause" size="sm" variant="outline" disabled={!playing} onClick={() => dispatch(paused())}>
          <Pause />
        </IconButton>
        <IconButton aria-label="Stop" size="sm" variant="outline" onClick={() => dispatch(stopped())}>
          <Square />
        </IconButton>
      </HStack>
      <CpuMeter />
    </Flex>
  );
}
