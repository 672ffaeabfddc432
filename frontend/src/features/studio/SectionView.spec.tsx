/** @jest-environment jsdom */
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, screen, within } from '@testing-library/react';
import { SectionView } from './SectionView';

// The section's own panel is its spec's concern (it needs more of a browser than jsdom has): here it only arrives.
jest.mock('../visuals/VisualsSection', () => ({ VisualsSection: () => 'the visuals panel' }));

const renderSection = (id: string) =>
  render(
    <ChakraProvider value={defaultSystem}>
      <SectionView sectionId={id} />
    </ChakraProvider>,
  );

describe('SectionView', () => {
  it('shows the heading and subtitle of a known section', async () => {
    renderSection('visuals');
    const section = screen.getByTestId('section-visuals');
    expect(within(section).getByRole('heading', { level: 1 }).textContent).toBe('Visual Generation');
    expect(section.textContent).toContain('AI-powered video creation and real-time visual sync');
    // Its panel is loaded on demand, under the heading.
    expect(await within(section).findByText('the visuals panel')).toBeTruthy();
  });

  it('says "Section not implemented" for an unknown id', () => {
    renderSection('karaoke');
    expect(screen.getByTestId('section-not-implemented').textContent).toBe('Section not implemented');
    expect(screen.queryByRole('heading')).toBeNull();
  });
});
