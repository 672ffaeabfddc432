import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { BASE_URL } from '../support/env';
import { signIn, type SignedInAgent } from '../support/sign-in';

/**
 * Output links against the real gateway and NATS: a signed-in studio socket registers a key, and a socket
 * with no session at /ws/output?key= receives the studio's visual frames (as an OBS Browser Source would).
 */
const WS_URL = `${BASE_URL.replace(/^http/, 'ws')}/ws`;
const OUTPUT_URL = `${BASE_URL.replace(/^http/, 'ws')}/ws/output`;
const INACTIVE = { code: 4404, reason: 'This output link is not active: open the studio’s Video & Visuals' };

const newKey = () => randomBytes(16).toString('base64url');

/** A studio socket: JSON messages queued, `next(type)` waits for the next message of that type. */
async function studio(agent: SignedInAgent) {
  const socket = new WebSocket(WS_URL, { headers: { cookie: agent.cookie, origin: BASE_URL } });
  const queue: Array<Record<string, unknown>> = [];
  const waiters: Array<{ type: string; resolve: (m: Record<string, unknown>) => void }> = [];
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as Record<string, unknown>;
    const index = waiters.findIndex((w) => w.type === message.type);
    if (index >= 0) waiters.splice(index, 1)[0]!.resolve(message);
    else queue.push(message);
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const next = (type: string, timeoutMs = 5000): Promise<Record<string, unknown>> => {
    const index = queue.findIndex((m) => m.type === type);
    if (index >= 0) return Promise.resolve(queue.splice(index, 1)[0]!);
    return new Promise((resolve, reject) => {
      const waiter = { type, resolve };
      waiters.push(waiter);
      setTimeout(() => {
        const at = waiters.indexOf(waiter);
        if (at >= 0) waiters.splice(at, 1);
        reject(new Error(`no ${type} within ${timeoutMs} ms`));
      }, timeoutMs);
    });
  };
  await next('welcome');
  return { socket, next, send: (message: object) => socket.send(JSON.stringify(message)) };
}

/** An output socket without any session: what it received, and how it closed. */
async function output(key: string) {
  const socket = new WebSocket(`${OUTPUT_URL}?key=${encodeURIComponent(key)}`);
  const frames: Buffer[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  socket.on('message', (data, isBinary) => isBinary && frames.push(data as Buffer));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  return { socket, frames, closed };
}

/** A frame as the studio encodes it: 'SV', version 1, mode 1, beat, pulse, tempo × 10, sequence, lengths, bytes. */
function visualFrame(sequence: number, waveform = 1024, spectrum = 1024): string {
  const bytes = Buffer.alloc(16 + waveform + spectrum, 128);
  bytes.set([0x53, 0x56, 1, 1, 1, 255]);
  bytes.writeUInt16LE(1280, 6);
  bytes.writeUInt32LE(sequence, 8);
  bytes.writeUInt16LE(waveform, 12);
  bytes.writeUInt16LE(spectrum, 14);
  return bytes.toString('base64');
}

const waitFor = async (check: () => boolean, timeoutMs = 5000) => {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe('output links (/ws/output)', () => {
  let demo: SignedInAgent;
  let rival: SignedInAgent;
  beforeAll(async () => {
    demo = await signIn('demo', 'demo');
    rival = await signIn('rival', 'rival');
  });

  it('passes a studio socket’s frames to an output socket with no session, and counts it', async () => {
    const key = newKey();
    const studioSocket = await studio(demo);
    studioSocket.send({ type: 'output_key', key });
    expect(await studioSocket.next('output_presence')).toEqual({ type: 'output_presence', count: 0 });

    const obs = await output(key);
    expect(await studioSocket.next('output_presence')).toEqual({ type: 'output_presence', count: 1 });
    studioSocket.send({ type: 'output_frame', data: visualFrame(7) });
    await waitFor(() => obs.frames.length === 1);
    expect(obs.frames[0]!.length).toBe(2064);
    expect(obs.frames[0]!.readUInt32LE(8)).toBe(7);
    expect(Buffer.from(obs.frames[0]!).toString('base64')).toBe(visualFrame(7));

    const second = await output(key);
    expect(await studioSocket.next('output_presence')).toEqual({ type: 'output_presence', count: 2 });
    second.socket.close();
    expect(await studioSocket.next('output_presence')).toEqual({ type: 'output_presence', count: 1 });

    // When the studio goes, the output is told in plain words.
    studioSocket.socket.close();
    expect(await obs.closed).toEqual(INACTIVE);
  });

  it('refuses a key no studio registered, and a malformed one', async () => {
    expect(await (await output(newKey())).closed).toEqual(INACTIVE);
    expect(await (await output('not-a-key')).closed).toEqual(INACTIVE);
  });

  it('does not let another user register (hijack) a key that is in use', async () => {
    const key = newKey();
    const owner = await studio(demo);
    owner.send({ type: 'output_key', key });
    await owner.next('output_presence');
    const obs = await output(key);
    await owner.next('output_presence');

    const thief = await studio(rival);
    thief.send({ type: 'output_key', key });
    expect(await thief.next('error')).toMatchObject({ code: 'failed', for: 'output_key', message: 'This output link belongs to another studio' });
    thief.send({ type: 'output_frame', data: visualFrame(1) });
    expect(await thief.next('error')).toMatchObject({ for: 'output_frame' });
    owner.send({ type: 'output_frame', data: visualFrame(2) });
    await waitFor(() => obs.frames.length === 1);
    expect(obs.frames[0]!.readUInt32LE(8)).toBe(2);
    thief.socket.close();
    owner.socket.close();
    await obs.closed;
  });

  it('drops frames over the size limit and anything that is not a visual frame', async () => {
    const key = newKey();
    const owner = await studio(demo);
    owner.send({ type: 'output_key', key });
    await owner.next('output_presence');
    const obs = await output(key);
    await owner.next('output_presence');
    owner.send({ type: 'output_frame', data: visualFrame(1, 2048, 2048) }); // 4112 bytes: over 4 KB
    expect(await owner.next('error')).toMatchObject({ code: 'invalid', for: 'output_frame' });
    owner.send({ type: 'output_frame', data: Buffer.from(JSON.stringify({ userId: 'secret' })).toString('base64') });
    expect(await owner.next('error')).toMatchObject({ code: 'failed', for: 'output_frame', message: 'Not a visual frame' });
    owner.send({ type: 'output_frame', data: visualFrame(3) });
    await waitFor(() => obs.frames.length === 1);
    expect(obs.frames.map((frame) => frame.readUInt32LE(8))).toEqual([3]);
    owner.socket.close();
    await obs.closed;
  });
});
