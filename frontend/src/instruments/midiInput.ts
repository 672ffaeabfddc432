/** Web MIDI input for the synthesizer: note-on/off from every connected input device. */
export interface MidiInputDevice {
  id: string;
  name: string;
}

export type MidiAccessResult = { ok: true; access: MIDIAccess } | { ok: false; message: string };

export const NO_WEB_MIDI = 'This browser has no Web MIDI: MIDI devices need Chrome, Edge or Opera.';

let request: Promise<MidiAccessResult> | null = null;

/** One MIDI access for the page (the browser may ask the user once). */
export function midiAccess(): Promise<MidiAccessResult> {
  request ??= (async () => {
    if (typeof navigator === 'undefined' || typeof navigator.requestMIDIAccess !== 'function') return { ok: false, message: NO_WEB_MIDI };
    try {
      return { ok: true, access: await navigator.requestMIDIAccess({ sysex: false }) };
    } catch (error) {
      return { ok: false, message: `MIDI access was refused: ${(error as Error).message}` };
    }
  })();
  return request;
}

export type NoteHandler = (event: { type: 'on' | 'off'; note: number; velocity: number }) => void;

/** Status byte → note event: 0x9n with velocity > 0 is on; 0x8n, or 0x9n with velocity 0, is off. */
export function parseNoteMessage(data: Uint8Array): { type: 'on' | 'off'; note: number; velocity: number } | null {
  if (data.length < 3) return null;
  const command = data[0]! & 0xf0;
  if (command === 0x90 && data[2]! > 0) return { type: 'on', note: data[1]!, velocity: data[2]! / 127 };
  if (command === 0x80 || command === 0x90) return { type: 'off', note: data[1]!, velocity: 0 };
  return null;
}

/** Listens to every input (and ones plugged in later); returns the device list now and a stop function. */
export function listenToInputs(access: MIDIAccess, onNote: NoteHandler, onDevices: (devices: MidiInputDevice[]) => void): () => void {
  const attach = () => {
    const devices: MidiInputDevice[] = [];
    access.inputs.forEach((input) => {
      input.onmidimessage = (message) => {
        const note = message.data && parseNoteMessage(message.data);
        if (note) onNote(note);
      };
      devices.push({ id: input.id, name: input.name ?? input.id });
    });
    onDevices(devices);
  };
  attach();
  access.onstatechange = attach;
  return () => {
    access.onstatechange = null;
    access.inputs.forEach((input) => (input.onmidimessage = null));
  };
}
