import { Box, HStack, Stack, Text } from '@chakra-ui/react';
import { useAppSelector } from '../../app/hooks';
import type { LiveStatus } from '../live/liveConnection';

const API_LIGHT: Record<LiveStatus, { color: string; label: string; pulse: boolean }> = {
  connected: { color: 'green.400', label: 'Connected', pulse: false },
  connecting: { color: 'orange.400', label: 'Connecting', pulse: true },
  disconnected: { color: 'red.500', label: 'Disconnected', pulse: false },
};

function Light({ name, color, label, pulse }: { name: string; color: string; label: string; pulse?: boolean }) {
  return (
    <HStack justify="space-between" fontSize="xs" data-testid={`status-${name.toLowerCase()}`} data-state={label.toLowerCase()}>
      <Text color="fg.muted">{name}</Text>
      <HStack gap="1.5">
        <Box w="2" h="2" borderRadius="full" bg={color} animation={pulse ? 'pulse 1s ease-in-out infinite' : undefined} />
        <Text>{label}</Text>
      </HStack>
    </HStack>
  );
}

/** "Local" is the in-browser audio (always active); "APIs" is the real live-connection state. */
export function StatusLights() {
  const status = useAppSelector((state) => state.live.status);
  const api = API_LIGHT[status];
  return (
    <Stack gap="1.5">
      <Light name="Local" color="green.400" label="Active" />
      <Light name="APIs" color={api.color} label={api.label} pulse={api.pulse} />
    </Stack>
  );
}
