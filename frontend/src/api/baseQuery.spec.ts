import { httpErrorMessage } from './baseQuery';

describe('httpErrorMessage', () => {
  it('is "status: body", or the status text when the body is empty', () => {
    expect(httpErrorMessage(415, 'Please upload an audio or video file', 'Unsupported Media Type')).toBe('415: Please upload an audio or video file');
    expect(httpErrorMessage(401, { statusCode: 401, message: 'Not signed in' }, 'Unauthorized')).toBe('401: {"statusCode":401,"message":"Not signed in"}');
    expect(httpErrorMessage(502, '', 'Bad Gateway')).toBe('502: Bad Gateway');
    expect(httpErrorMessage(504, undefined, 'Gateway Timeout')).toBe('504: Gateway Timeout');
  });
});
