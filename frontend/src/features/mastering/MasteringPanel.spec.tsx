/** @jest-environment jsdom */
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createStore } from '../../app/store';
import { MasteringPanel } from './MasteringPanel';

const renderPanel = () =>
  render(
    <Provider store={createStore()}>
      <ChakraProvider value={defaultSystem}>
        <MasteringPanel />
      </ChakraProvider>
    </Provider>,
  );

describe('MasteringPanel', () => {
  it('says "No project selected" and cannot start without an open project', () => {
    renderPanel();
    expect(screen.getByTestId('mastering-no-project').textContent).toBe('No project selected');
    const start = screen.getByTestId('start-mastering') as HTMLButtonElement;
    expect(start.textContent).toBe('Start Mastering');
    expect(start.disabled).toBe(true);
    expect(screen.queryByTestId('mastering-progress')).toBeNull();
  });

  it('offers the proto vocabulary: full mix first, five styles, intensity Medium by default and named as it moves', () => {
    renderPanel();
    const masterType = screen.getByLabelText('Master type') as HTMLSelectElement;
    expect(masterType.value).toBe('full-mix');
    expect([...masterType.options].map((o) => o.value)).toEqual(['full-mix', 'per-stem', 'stem-groups']);
    expect([...(screen.getByLabelText('Style') as HTMLSelectElement).options].map((o) => o.textContent)).toEqual(['Balanced', 'Warm', 'Punchy', 'Open', 'Smooth']);
    const intensity = screen.getByLabelText(/^Intensity/) as HTMLInputElement;
    expect(intensity.value).toBe('2');
    expect(screen.getByTestId('mastering-intensity-name').textContent).toBe('Medium');
    fireEvent.change(intensity, { target: { value: '3' } });
    expect(screen.getByTestId('mastering-intensity-name').textContent).toBe('Heavy');
    fireEvent.change(intensity, { target: { value: '1' } });
    expect(screen.getByTestId('mastering-intensity-name').textContent).toBe('Light');
  });
});
