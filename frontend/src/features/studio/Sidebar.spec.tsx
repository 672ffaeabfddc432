/** @jest-environment jsdom */
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { configureStore } from '@reduxjs/toolkit';
import { liveSlice } from '../live/liveSlice';
import { DEFAULT_SECTION, findSection } from './sections';
import { Sidebar } from './Sidebar';

// The sidebar's one router link (to /music) is a plain anchor here: react-router needs a browser's TextEncoder.
jest.mock('react-router', () => ({ Link: ({ to, children }: { to: string; children: React.ReactNode }) => <a href={to}>{children}</a> }));

function renderSidebar(activeSection: string) {
  const selected: string[] = [];
  render(
    // The status lights read the live connection's state, the only state the sidebar reads.
    <Provider store={configureStore({ reducer: { live: liveSlice.reducer } })}>
      <ChakraProvider value={defaultSystem}>
        <Sidebar activeSection={activeSection} onSelect={(id) => selected.push(id)} user={null} />
      </ChakraProvider>
    </Provider>,
  );
  const nav = screen.getByRole('navigation', { name: 'Studio sections' });
  const sections = within(nav)
    .getAllByRole('button')
    .filter((button) => button.tagName === 'BUTTON');
  return { selected, sections };
}

describe('Sidebar', () => {
  afterEach(cleanup);

  it('offers the five sections in order and marks only the active one as the current page', () => {
    const { sections } = renderSidebar('pads');
    expect(sections.map((button) => button.textContent?.trim())).toEqual(['Upload & Split', 'Create Music', 'Video & Visuals', 'AI Mastering', 'Export & Share']);
    expect(sections.map((button) => button.getAttribute('aria-current'))).toEqual([null, 'page', null, null, null]);
  });

  it('selects the section a button names, whose heading the section view then shows', () => {
    const { selected, sections } = renderSidebar('separator');
    for (const button of sections) fireEvent.click(button);
    expect(selected).toEqual(['separator', 'pads', 'visuals', 'mastering', 'export']);
    expect(selected.map((id) => findSection(id)?.heading)).toEqual(['Upload Your Media', 'Music Creation Studio', 'Visual Generation', 'AI Mastering', 'Export & Share']);
  });

  it('opens on Upload & Split', () => {
    expect(findSection(DEFAULT_SECTION)?.label).toBe('Upload & Split');
  });
});
