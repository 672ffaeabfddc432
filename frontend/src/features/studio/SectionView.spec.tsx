/** @jest-environment jsdom */
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, screen } from '@testing-library/react';
import { SectionView } from './SectionView';

const renderSection = (id: string) =>
  render(
    <ChakraProvider value={defaultSystem}>
      <SectionView sectionId={id} />
    </ChakraProvider>,
  );

describe('SectionView', () => {
  it('shows the heading and subtitle of a known section', () => {
    renderSection('visuals');
    expect(screen.getByRole('heading', { name: 'Visual Generation' })).toBeTruthy();
    expect(screen.getByText('AI-powered video creation and real-time visual sync')).toBeTruthy();
  });

  it('says "Section not implemented" for an unknown id', () => {
    renderSection('karaoke');
    expect(screen.getByText('Section not implemented')).toBeTruthy();
    expect(screen.queryByRole('heading')).toBeNull();
  });
});
