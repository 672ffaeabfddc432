import { Box, CloseButton, Drawer, Flex, Portal } from '@chakra-ui/react';
import { useEffect, useMemo, useState } from 'react';
import { useStore } from 'react-redux';
import { useGetCurrentUserQuery } from '../../api/api';
import type { AppStore } from '../../app/store';
import { studioPlayer } from '../../audio/studioPlayer';
import { connectControlOutputs } from '../../instruments/connectOutputs';
import { LiveChannelContext, useLiveConnection } from '../live/useLiveConnection';
import { StudioProjectController } from '../project/studioProject';
import { StudioProjectContext } from '../project/StudioProjectContext';
import { DEFAULT_SECTION } from './sections';
import { SectionView } from './SectionView';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';

/** The main app screen: five sections switched in place, without changing the URL. */
export function StudioScreen() {
  const [activeSection, setActiveSection] = useState(DEFAULT_SECTION);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const { data: user } = useGetCurrentUserQuery();
  const live = useLiveConnection();
  const store = useStore() as AppStore;
  const project = useMemo(() => new StudioProjectController(store.dispatch, store.getState, studioPlayer, live), [store, live]);
  useEffect(() => {
    project.start();
    void project.reopen();
    const disconnectOutputs = connectControlOutputs(studioPlayer);
    return () => {
      project.dispose();
      disconnectOutputs();
    };
  }, [project]);

  const select = (id: string) => {
    setActiveSection(id);
    setDrawerOpen(false);
  };

  return (
    <LiveChannelContext.Provider value={live}>
      <StudioProjectContext.Provider value={project}>
      <Flex h="100dvh" bg="bg" overflow="hidden">
        <Box as="aside" w="64" flexShrink={0} borderRightWidth="1px" display={{ base: 'none', lg: 'block' }} data-testid="sidebar">
          <Sidebar activeSection={activeSection} onSelect={select} user={user ?? null} />
        </Box>
        <Drawer.Root open={drawerOpen} onOpenChange={(event) => setDrawerOpen(event.open)} placement="start">
          <Portal>
            <Drawer.Backdrop />
            <Drawer.Positioner>
              <Drawer.Content maxW="64" data-testid="sidebar-drawer" aria-label="Studio menu">
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
      </StudioProjectContext.Provider>
    </LiveChannelContext.Provider>
  );
}
