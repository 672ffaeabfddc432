import { LIVE_CLIENT_MESSAGE_TYPES, LiveMessage, parseClientFrame, parseServerFrame } from './live';

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

  it('keeps every client message type inside the one union', () => {
    for (const type of LIVE_CLIENT_MESSAGE_TYPES) expect(LiveMessage.optionsMap.has(type)).toBe(true);
  });
});
