import { Box, Flex, HStack, IconButton, Text } from '@chakra-ui/react';
import { Menu, Pause, Play, Square } from 'lucide-react';
import { useAppSelector } from '../../app/hooks';
import { formatTime } from '../../lib/format';
import { pause, play, stop } from '../transport/transportControls';
import { CpuMeter } from './CpuMeter';

export function TopBar({ onOpenMenu }: { onOpenMenu: () => void }) {
  const { file, status } = useAppSelector((state) => state.transport);
  const playing = status === 'playing';

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
        <IconButton aria-label="Play" size="sm" colorPalette="purple" disabled={playing} onClick={() => void play()}>
          <Play />
        </IconButton>
        <IconButton aria-label="Pause" size="sm" variant="outline" disabled={!playing} onClick={pause}>
          <Pause />
        </IconButton>
        <IconButton aria-label="Stop" size="sm" variant="outline" onClick={stop}>
          <Square />
        </IconButton>
      </HStack>
      <CpuMeter />
    </Flex>
  );
}
