/** @jest-environment jsdom */
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createStore } from '../../app/store';
import { projectsApi } from './projectsApi';
import { stemsLoaded } from './projectSlice';
import { normalizeStems } from './stems';
import type { StudioProjectController } from './studioProject';
import { StudioProjectContext } from './StudioProjectContext';
import { engineLabel, StemMixer } from './StemMixer';

const ENHANCED = { jobId: 'e1', createdAt: '2026-11-23T17:00:00.000Z' };

async function renderMixer() {
  const store = createStore();
  await store.dispatch(projectsApi.util.upsertQueryData('listEngines', undefined, []));
  const stems = normalizeStems([
    { id: 'v', type: 'vocals', engine: 'fast', url: '/api/stems/v/audio?version=enhanced&job=e1', version: 'enhanced', enhanced: ENHANCED },
    { id: 'd', type: 'drums', engine: 'fast', url: '/api/stems/d/audio' },
  ]);
  store.dispatch(stemsLoaded({ stems, partialSeconds: null }));
  const switches: unknown[] = [];
  const controller = { switchVersion: async (id: string, version: string) => void switches.push([id, version]), changeStem: () => undefined } as unknown as StudioProjectController;
  await act(async () =>
    void render(
      <Provider store={store}>
        <ChakraProvider value={defaultSystem}>
          <StudioProjectContext.Provider value={controller}>
            <StemMixer />
          </StudioProjectContext.Provider>
        </ChakraProvider>
      </Provider>,
    ),
  );
  return { switches };
}

describe('StemMixer: original and enhanced versions', () => {
  it('offers Original/Enhanced only on a stem with an enhanced version, showing the one that plays', async () => {
    const { switches } = await renderMixer();
    const vocals = screen.getByTestId('version-vocals');
    expect(vocals.getAttribute('data-version')).toBe('enhanced');
    expect(screen.getByRole('button', { name: 'Enhanced', pressed: true })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Original', pressed: false })).toBeTruthy();
    expect(screen.queryByTestId('version-drums')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Original' }));
    expect(switches).toEqual([['v', 'original']]);
  });
});

describe('engineLabel', () => {
  const info = (available: boolean, measured: { heldOutSdrDb: number; realTimeFactor: number } | null) => ({ engine: 'hybrid' as const, available, reason: available ? null : 'x', quality: 'excellent', measured });

  it('states what a shipped engine measured on songs it never saw', () => {
    expect(engineLabel('hybrid', info(true, { heldOutSdrDb: 6.14, realTimeFactor: 31.6 }))).toBe('hybrid · 6.1 dB · 32× real time');
  });

  it('is the plain name for an operator model (nothing measured) and says when an engine is unavailable', () => {
    expect(engineLabel('hybrid', info(true, null))).toBe('hybrid');
    expect(engineLabel('hybrid', undefined)).toBe('hybrid');
    expect(engineLabel('hybrid', info(false, { heldOutSdrDb: 6, realTimeFactor: 30 }))).toBe('hybrid (unavailable)');
  });
});
