/** @jest-environment jsdom */
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { beatEvent, transportEvent } from '../../../audio/playbackEvents';
import { ControlOutputs } from '../../../instruments/controlOutputs';
import { OLD_BRIDGE_MESSAGE } from '../../../instruments/oscBridgeClient';
import { fakeBridgeClient } from '../../../instruments/testing/fakeBridge.harness';
import { LIST_REFRESH_MS, SyncPanel } from './SyncPanel';

// The help link's path comes with the help page, whose router link needs a browser's TextEncoder.
jest.mock('react-router', () => ({ Link: () => null }));

function setup() {
  const general = fakeBridgeClient('default', false);
  const resolume = fakeBridgeClient('resolume', false);
  const outputs = new ControlOutputs(general.client, resolume.client, () => new Date(2026, 10, 23, 21, 4, 5, 123).getTime());
  let reportWindows: (open: number) => void = () => undefined;
  const watchWindows = jest.fn((listener: (open: number) => void) => {
    reportWindows = listener;
    listener(0);
    return () => undefined;
  });
  render(
    <ChakraProvider value={defaultSystem}>
      <SyncPanel outputs={outputs} watchWindows={watchWindows} />
    </ChakraProvider>,
  );
  return { outputs, general, resolume, windows: (open: number) => act(() => reportWindows(open)) };
}

const card = (testId: string) => within(screen.getByTestId(testId));
const text = (testId: string) => screen.getByTestId(testId).textContent;
const rows = () =>
  screen.queryAllByTestId('osc-message').map((row) =>
    ['osc-message-time', 'osc-message-route', 'osc-message-address', 'osc-message-args'].map((cell) => within(row).getByTestId(cell).textContent),
  );

beforeEach(() => {
  localStorage.clear();
  jest.useFakeTimers();
});
afterEach(() => jest.useRealTimers());

describe('SyncPanel', () => {
  it('starts with everything off and says why nothing has been sent', () => {
    setup();
    expect(text('touchdesigner-output-badge')).toBe('Off');
    expect(text('touchdesigner-status')).toBe('OSC bridge: off');
    expect(text('resolume-output-badge')).toBe('Disconnected');
    expect(text('resolume-status')).toBe('Resolume: not connected');
    expect((screen.getByLabelText('Resolume OSC input') as HTMLInputElement).value).toBe('127.0.0.1:7000');
    expect(text('browser-output-badge')).toBe('Standby');
    expect(text('osc-messages-empty')).toBe('Nothing has been sent yet: OSC output is off and Resolume is not connected.');
    expect(card('touchdesigner-output').getByRole('link', { name: 'How to set up the OSC bridge' }).getAttribute('href')).toBe('/help/osc-bridge');
  });

  it('shows the TouchDesigner route as the bridge really is: looking, not running, connected with its target', () => {
    const { general } = setup();
    fireEvent.click(card('touchdesigner-output').getByRole('button', { name: 'Turn on OSC output' }));
    expect(general.preference.stored.on).toBe(true);
    expect(text('touchdesigner-output-badge')).toBe('Looking');
    act(() => general.sockets[0]!.refuse());
    expect(text('touchdesigner-output-badge')).toBe('Bridge not running');
    expect(text('touchdesigner-status')).toBe('OSC bridge: not running');
    expect(text('osc-messages-empty')).toBe('Nothing has been sent yet: the OSC bridge is not connected.');
    fireEvent.click(card('touchdesigner-output').getByRole('button', { name: 'Look again' }));
    act(() => general.sockets[1]!.answer({ host: '127.0.0.1', port: 9000 }, 'default'));
    expect(text('touchdesigner-output-badge')).toBe('Connected');
    expect(text('touchdesigner-status')).toBe('OSC bridge: connected → 127.0.0.1:9000');
    expect(text('osc-messages-empty')).toMatch(/^Nothing has been sent yet: nothing is playing\./);
  });

  it('connects Resolume to the target typed (checked first), shows its real state, and disconnects', () => {
    const { resolume } = setup();
    const input = screen.getByLabelText('Resolume OSC input') as HTMLInputElement;
    fireEvent.change(input, { target: { value: 'resolume' } });
    fireEvent.click(screen.getByTestId('resolume-toggle'));
    expect(screen.getByText('Enter the OSC target as host:port, e.g. 127.0.0.1:7000')).toBeTruthy();
    expect(resolume.sockets).toHaveLength(0);

    fireEvent.change(input, { target: { value: '127.0.0.1:7001' } });
    fireEvent.click(screen.getByTestId('resolume-toggle'));
    expect(resolume.preference.stored.on).toBe(true);
    expect(localStorage.getItem('stemdeck.resolumeTarget')).toBe('127.0.0.1:7001');
    expect(text('resolume-status')).toBe('Resolume: looking for the OSC bridge…');
    act(() => resolume.sockets[0]!.answer({ host: '127.0.0.1', port: 7000 }, 'resolume'));
    expect(resolume.sockets[0]!.sent).toEqual([JSON.stringify({ type: 'target', host: '127.0.0.1', port: 7001 })]);
    act(() => resolume.sockets[0]!.status({ host: '127.0.0.1', port: 7001 }, 'resolume'));
    expect(text('resolume-status')).toBe('Resolume: connected → 127.0.0.1:7001');
    expect(text('resolume-output-badge')).toBe('Connected');
    expect(input.disabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Disconnect' }));
    expect(resolume.preference.stored.on).toBe(false);
    expect(text('resolume-status')).toBe('Resolume: not connected');
    expect(screen.getByTestId('resolume-toggle').textContent).toBe('Connect');
  });

  it('says when the bridge is too old for Resolume, and what is wrong when it is not running', () => {
    const { resolume } = setup();
    fireEvent.click(screen.getByTestId('resolume-toggle'));
    act(() => resolume.sockets[0]!.answer({ host: '127.0.0.1', port: 7000 }));
    expect(text('resolume-status')).toBe(`Resolume: error: ${OLD_BRIDGE_MESSAGE}`);
    expect(text('resolume-output-badge')).toBe('Error');
    fireEvent.click(card('resolume-output').getByRole('button', { name: 'Look again' }));
    act(() => resolume.sockets[1]!.refuse());
    expect(text('resolume-status')).toBe('Resolume: the OSC bridge is not running');
    expect(text('resolume-output-badge')).toBe('Bridge not running');
  });

  it('lists the messages actually sent, newest first, at most 10, redrawn at most every 100 ms', () => {
    const { outputs, general, resolume } = setup();
    fireEvent.click(screen.getByRole('button', { name: 'Turn on OSC output' }));
    act(() => general.sockets[0]!.answer({ host: '127.0.0.1', port: 9000 }, 'default'));
    fireEvent.click(screen.getByTestId('resolume-toggle'));
    act(() => resolume.sockets[0]!.answer({ host: '127.0.0.1', port: 7000 }, 'resolume'));

    act(() => {
      outputs.playback(transportEvent('play', 0, false, 0));
      outputs.playback(beatEvent(0, 120, 0, 0));
    });
    // Not yet redrawn: the list waits for the next refresh.
    expect(screen.getByTestId('osc-messages-empty')).toBeTruthy();
    act(() => jest.advanceTimersByTime(LIST_REFRESH_MS));
    expect(rows()).toEqual([
      ['21:04:05.123', 'Resolume', '/composition/tempocontroller/resync', '1'],
      ['21:04:05.123', 'Resolume', '/composition/tempocontroller/tempo', '0.2083 (120 BPM)'],
      ['21:04:05.123', 'TouchDesigner', '/stemdeck/beat', '0 120'],
      ['21:04:05.123', 'Resolume', '/composition/tempocontroller/resync', '1'],
      ['21:04:05.123', 'TouchDesigner', '/stemdeck/transport', 'play 0'],
    ]);

    act(() => {
      for (let beat = 1; beat < 12; beat++) outputs.playback(beatEvent(beat, 120, beat / 2, 0));
    });
    act(() => jest.advanceTimersByTime(LIST_REFRESH_MS - 1));
    expect(rows()).toHaveLength(5);
    act(() => jest.advanceTimersByTime(1));
    const shown = rows();
    expect(shown).toHaveLength(10);
    // Beats 8 and 4 resynced Resolume; the newest first.
    expect(shown.slice(0, 4).map((row) => `${row[2]} ${row[3]}`)).toEqual([
      '/stemdeck/beat 11 120',
      '/stemdeck/beat 10 120',
      '/stemdeck/beat 9 120',
      '/composition/tempocontroller/resync 1',
    ]);
    expect(screen.getAllByTestId('osc-message').map((row) => row.getAttribute('data-route'))).toContain('resolume');
  });

  it('shows Live while an output window is open and Standby otherwise, and opens one', () => {
    const { windows } = setup();
    windows(1);
    expect(text('browser-output-badge')).toBe('Live');
    expect(text('browser-output-status')).toBe('Live: 1 output window open');
    windows(2);
    expect(text('browser-output-status')).toBe('Live: 2 output windows open');
    windows(0);
    expect(text('browser-output-badge')).toBe('Standby');
    expect(text('browser-output-status')).toBe('Standby: no output window open');
    const open = jest.spyOn(window, 'open').mockReturnValue(null);
    fireEvent.click(screen.getByRole('button', { name: 'Open output window' }));
    expect(open).toHaveBeenCalledWith('/output', 'stemdeck-output', expect.stringContaining('popup'));
  });
});
