import { isVisualFrameBytes, LIVE_CLIENT_MESSAGE_TYPES, LIVE_SERVER_MESSAGE_TYPES, MAX_OUTPUT_FRAME_BYTES, parseClientFrame, parseServerFrame, sessionChangeOf, type AudioEventMessage } from './live';

describe('parseClientFrame (the gateway edge of /ws)', () => {
  it('accepts a message a client may send, typed', () => {
    expect(parseClientFrame('{"type":"pad_trigger","pad":"Drums","velocity":127}')).toEqual({
      ok: true,
      message: { type: 'pad_trigger', pad: 'Drums', velocity: 127 },
    });
    expect(parseClientFrame('{"type":"stem_update","stemId":"s1","muted":true}')).toEqual({ ok: true, message: { type: 'stem_update', stemId: 's1', muted: true } });
    expect(parseClientFrame('{"type":"stem_update","id":"save-1","stemId":"s1","volume":-3}')).toEqual({
      ok: true,
      message: { type: 'stem_update', id: 'save-1', stemId: 's1', volume: -3 },
    });
  });

  it.each([
    ['not json', 'Malformed message: not valid JSON'],
    ['[1,2]', 'Malformed message: expected a JSON object'],
    ['null', 'Malformed message: expected a JSON object'],
    ['{"type":""}', 'Malformed message: missing string field "type"'],
    ['{"kind":"x"}', 'Malformed message: missing string field "type"'],
  ])('answers %s with a malformed error', (frame, message) => {
    expect(parseClientFrame(frame)).toEqual({ ok: false, error: { type: 'error', code: 'malformed', message } });
  });

  it('answers a type no client may send as unknown, server-only types included', () => {
    expect(parseClientFrame('{"type":"warp_drive"}')).toEqual({ ok: false, error: { type: 'error', code: 'unknown_type', message: 'Unknown message type "warp_drive"' } });
    expect(parseClientFrame('{"type":"stems_ready","projectId":"p","engine":"fast","stems":[]}')).toMatchObject({ ok: false, error: { code: 'unknown_type' } });
  });

  it('answers bad fields as invalid, naming the field and the message type', () => {
    expect(parseClientFrame('{"type":"stem_update","stemId":"s1","volume":99}')).toEqual({
      ok: false,
      error: { type: 'error', code: 'invalid', message: expect.stringContaining('volume'), for: 'stem_update' },
    });
    expect(parseClientFrame('{"type":"stem_update","stemId":"s1","gain":1}')).toMatchObject({ ok: false, error: { code: 'invalid', for: 'stem_update' } });
    expect(parseClientFrame('{"type":"pad_trigger","pad":"Vocals","velocity":200}')).toMatchObject({ ok: false, error: { code: 'invalid', message: expect.stringContaining('velocity') } });
  });
});

describe('parseServerFrame (the browser edge of /ws)', () => {
  const stem = { id: 's1', projectId: 'p', type: 'vocals', engine: 'fast', url: '/api/stems/s1/audio', volume: -3, muted: false, soloed: false, quality: 'fast', version: 'original', enhanced: null };

  it('accepts what the gateway sends, typed', () => {
    const welcome = { type: 'welcome', userId: 'u1', connectionId: 'c1', protocol: 1 };
    expect(parseServerFrame(JSON.stringify(welcome))).toEqual({ ok: true, message: welcome });
    const updated = { type: 'stem_updated', stem, changes: { volume: -3 } };
    expect(parseServerFrame(JSON.stringify(updated))).toEqual({ ok: true, message: updated });
    expect(parseServerFrame('{"type":"pad_trigger","pad":"Bass","velocity":100}')).toMatchObject({ ok: true });
    expect(parseServerFrame('{"type":"stem_saved","id":"save-1"}')).toEqual({ ok: true, message: { type: 'stem_saved', id: 'save-1' } });
    const failed = { type: 'error', code: 'failed', message: 'Stem not found', for: 'stem_update', id: 'save-2' };
    expect(parseServerFrame(JSON.stringify(failed))).toEqual({ ok: true, message: failed });
  });

  it('turns a stem event with a bad field, an unknown type or another protocol version into a typed error', () => {
    expect(parseServerFrame(JSON.stringify({ type: 'stem_updated', stem: { ...stem, type: 'kazoo' }, changes: {} }))).toMatchObject({
      ok: false,
      error: { type: 'error', code: 'invalid', for: 'stem_updated', message: expect.stringContaining('stem.type') },
    });
    expect(parseServerFrame('{"type":"audio_update"}')).toMatchObject({ ok: false, error: { code: 'unknown_type' } });
    expect(parseServerFrame('{"type":"welcome","userId":"u","connectionId":"c","protocol":2}')).toMatchObject({ ok: false, error: { code: 'invalid', for: 'welcome' } });
  });

  it('knows every message type the session page sends and receives', () => {
    for (const type of ['join_session', 'leave_session', 'chat_message', 'audio_event', 'cursor_position']) expect(LIVE_CLIENT_MESSAGE_TYPES.has(type as never)).toBe(true);
    for (const type of ['session_joined', 'user_joined', 'user_left', 'audio_sync', 'cursor_update', 'pad_triggered', 'stem_changed', 'chat_message']) {
      expect(LIVE_SERVER_MESSAGE_TYPES.has(type as never)).toBe(true);
    }
  });
});

describe('collaboration messages on /ws', () => {
  it('takes each audio_event variant by its eventType, and turns the shared-state ones into session changes', () => {
    const pad = parseClientFrame('{"type":"audio_event","eventType":"pad_trigger","eventData":{"pad":"Kick","velocity":127}}');
    expect(pad).toEqual({ ok: true, message: { type: 'audio_event', eventType: 'pad_trigger', eventData: { pad: 'Kick', velocity: 127 } } });
    const play = parseClientFrame('{"type":"audio_event","eventType":"transport","eventData":{"action":"play","position":12.5}}');
    expect(play.ok && sessionChangeOf(play.message as AudioEventMessage)).toEqual({ kind: 'transport', action: 'play', position: 12.5 });
    const volume = parseClientFrame('{"type":"audio_event","eventType":"stem_update","stemId":"s1","eventData":{"property":"volume","value":0.5}}');
    expect(volume.ok && sessionChangeOf(volume.message as AudioEventMessage)).toEqual({ kind: 'stem_volume', stemId: 's1', value: 0.5 });
    const mute = parseClientFrame('{"type":"audio_event","eventType":"participant_mute","eventData":{"targetUserId":"u2","muted":true}}');
    expect(mute.ok && sessionChangeOf(mute.message as AudioEventMessage)).toBeNull();
  });

  it('refuses a pad the session does not have, a volume above 1, an unknown event type, and a cursor off the page', () => {
    expect(parseClientFrame('{"type":"audio_event","eventType":"pad_trigger","eventData":{"pad":"Cowbell","velocity":127}}')).toMatchObject({ ok: false, error: { code: 'invalid', for: 'audio_event' } });
    expect(parseClientFrame('{"type":"audio_event","eventType":"stem_update","stemId":"s1","eventData":{"property":"volume","value":2}}')).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect(parseClientFrame('{"type":"audio_event","eventType":"scratch","eventData":{}}')).toMatchObject({ ok: false, error: { code: 'invalid', for: 'audio_event' } });
    expect(parseClientFrame('{"type":"cursor_position","position":{"x":0.5,"y":1.5}}')).toMatchObject({ ok: false, error: { code: 'invalid', for: 'cursor_position' } });
    expect(parseClientFrame('{"type":"cursor_position","position":{"x":0.5,"y":0.25}}')).toMatchObject({ ok: true });
  });

  it('trims chat and refuses an empty or over-long message', () => {
    expect(parseClientFrame('{"type":"chat_message","message":"  hi  "}')).toEqual({ ok: true, message: { type: 'chat_message', message: 'hi' } });
    expect(parseClientFrame('{"type":"chat_message","message":"   "}')).toMatchObject({ ok: false, error: { message: expect.stringContaining('Message is required') } });
    expect(parseClientFrame(JSON.stringify({ type: 'chat_message', message: 'x'.repeat(501) }))).toMatchObject({ ok: false, error: { code: 'invalid' } });
  });
});

describe('output links on /ws', () => {
  const frame = (waveform: number, spectrum: number) => {
    const bytes = new Uint8Array(16 + waveform + spectrum);
    bytes.set([0x53, 0x56, 1, 0]);
    new DataView(bytes.buffer).setUint16(12, waveform, true);
    new DataView(bytes.buffer).setUint16(14, spectrum, true);
    return bytes;
  };

  it('takes a 22-character base64url key and nothing else', () => {
    expect(parseClientFrame('{"type":"output_key","key":"AAAAAAAAAAAAAAAAAAAA-_"}')).toMatchObject({ ok: true });
    expect(parseClientFrame('{"type":"output_key","key":"short"}')).toMatchObject({ ok: false, error: { code: 'invalid', for: 'output_key' } });
    expect(parseClientFrame('{"type":"output_key","key":"AAAAAAAAAAAAAAAAAAAA-_","userId":"u"}')).toMatchObject({ ok: false });
  });

  it('takes a base64 frame up to 4 KB and refuses a bigger one', () => {
    const fits = Buffer.from(frame(2040, 2040)).toString('base64');
    expect(parseClientFrame(JSON.stringify({ type: 'output_frame', data: fits }))).toMatchObject({ ok: true });
    const tooBig = Buffer.from(frame(2048, 2048)).toString('base64');
    expect(parseClientFrame(JSON.stringify({ type: 'output_frame', data: tooBig }))).toMatchObject({ ok: false, error: { for: 'output_frame' } });
    expect(parseServerFrame('{"type":"output_presence","count":2}')).toEqual({ ok: true, message: { type: 'output_presence', count: 2 } });
  });

  it('knows a visual frame by its magic and lengths', () => {
    expect(isVisualFrameBytes(frame(1024, 1024))).toBe(true);
    expect(isVisualFrameBytes(frame(1024, 1024).subarray(0, 2000))).toBe(false);
    expect(isVisualFrameBytes(new TextEncoder().encode('{"userId":"someone","email":"a@b.c"}'))).toBe(false);
    expect(isVisualFrameBytes(frame(MAX_OUTPUT_FRAME_BYTES, 0))).toBe(false);
  });
});
