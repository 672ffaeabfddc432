import { Box, Button, Separator, Stack, Text } from '@chakra-ui/react';
import { Piano } from 'lucide-react';
import { Link as RouterLink } from 'react-router';
import { Brand } from '../../ui/Brand';
import type { User } from '../auth/user';
import { STUDIO_SECTIONS } from './sections';
import { StatusLights } from './StatusLights';
import { UserBlock } from './UserBlock';

export interface SidebarProps {
  activeSection: string;
  onSelect: (id: string) => void;
  user: User | null;
}

export function Sidebar({ activeSection, onSelect, user }: SidebarProps) {
  return (
    <Stack h="full" p="4" gap="4" bg="bg.panel">
      <Brand />
      <Stack as="nav" aria-label="Studio sections" gap="1" flex="1">
        {STUDIO_SECTIONS.map(({ id, label, icon: Icon }) => (
          <Button
            key={id}
            variant={activeSection === id ? 'subtle' : 'ghost'}
            colorPalette={activeSection === id ? 'purple' : 'gray'}
            justifyContent="flex-start"
            aria-current={activeSection === id ? 'page' : undefined}
            onClick={() => onSelect(id)}
          >
            <Icon size={16} /> {label}
          </Button>
        ))}
        <Separator my="2" />
        <Button asChild variant="ghost" justifyContent="flex-start">
          <RouterLink to="/music">
            <Piano size={16} /> Music Studio
          </RouterLink>
        </Button>
      </Stack>
      <Box>
        <Text fontSize="xs" color="fg.subtle" mb="2" textTransform="uppercase" letterSpacing="wider">
          Status
        </Text>
        <StatusLights />
      </Box>
      {user && <UserBlock user={user} />}
    </Stack>
  );
}
