import { Box, CloseButton, Drawer, Flex, Portal } from '@chakra-ui/react';
import { useState } from 'react';
import { useGetCurrentUserQuery } from '../../api/api';
import { LiveChannelContext, useLiveConnection } from '../live/useLiveConnection';
import { DEFAULT_SECTION } from './sections';
import { SectionView } from './SectionView';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';

/** The main app screen (seed 000 §2): five sections switched in place, without changing the URL. */
export function StudioScreen() {
  const [activeSection, setActiveSection] = useState(DEFAULT_SECTION);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const { data: user } = useGetCurrentUserQuery();
  const live = useLiveConnection();

  const select = (id: string) => {
    setActiveSection(id);
    setDrawerOpen(false);
  };

  return (
    <LiveChannelContext.Provider value={live}>
      <Flex h="100dvh" bg="bg" overflow="hidden">
        <Box as="aside" w="64" flexShrink={0} borderRightWidth="1px" display={{ base: 'none', lg: 'block' }} data-testid="sidebar">
          <Sidebar activeSection={activeSection} onSelect={select} user={user ?? null} />
        </Box>
        <Drawer.Root open={drawerOpen} onOpenChange={(event) => setDrawerOpen(event.open)} placement="start">
          <Portal>
            <Drawer.Backdrop />
            <Drawer.Positioner>
              <Drawer.Content maxW="64" data-testid="sidebar-drawer">
                <Drawer.CloseTrigger asChild>
                  <CloseButton size="sm" position="absolute" top="3" right="3" />
                </Drawer.CloseTrigger>
                <Sidebar activeSection={activeSection} onSelect={select} user={user ?? null} />
              </Drawer.Content>
            </Drawer.Positioner>
          </Portal>
        </Drawer.Root>
        <Flex direction="column" flex="1" minW="0">
          <TopBar onOpenMenu={() => setDrawerOpen(true)} />
          <Box as="main" flex="1" overflowY="auto" p={{ base: '4', md: '8' }}>
            <SectionView sectionId={activeSection} />
          </Box>
        </Flex>
      </Flex>
    </LiveChannelContext.Provider>
  );
}
