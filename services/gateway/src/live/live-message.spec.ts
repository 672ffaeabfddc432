import { parseLiveMessage } from './live-message';

describe('parseLiveMessage', () => {
  it('accepts a JSON object with a type', () => {
    expect(parseLiveMessage('{"type":"pad_trigger","pad":"Drums","velocity":127}', false)).toEqual({
      ok: true,
      message: { type: 'pad_trigger', pad: 'Drums', velocity: 127 },
    });
  });

  it.each([
    ['not json', false, 'Malformed message: not valid JSON'],
    ['[1,2]', false, 'Malformed message: expected a JSON object'],
    ['null', false, 'Malformed message: expected a JSON object'],
    ['{"type":""}', false, 'Malformed message: missing string field "type"'],
    ['{"kind":"x"}', false, 'Malformed message: missing string field "type"'],
    ['{"type":"x"}', true, 'Binary frames are not accepted; send JSON text'],
  ])('rejects %s (binary=%s)', (frame, binary, error) => {
    expect(parseLiveMessage(frame, binary)).toEqual({ ok: false, error });
  });
});
