import type { NextFunction, Request, Response } from 'express';
import { csrfProtection, requestOrigin } from './csrf.middleware';

function exercise(method: string, path: string, headers: Record<string, string>) {
  const req = { method, path, headers, get: (name: string) => headers[name.toLowerCase()] } as unknown as Request;
  let status: number | undefined;
  let body: { message?: string } | undefined;
  const res = {
    status(code: number) {
      status = code;
      return this;
    },
    json(value: { message?: string }) {
      body = value;
      return this;
    },
  } as unknown as Response;
  const next = jest.fn() as NextFunction;
  csrfProtection(new Set(['http://localhost:8080']))(req, res, next);
  return { status, body, passed: (next as jest.Mock).mock.calls.length === 1 };
}

describe('csrfProtection', () => {
  it('lets safe methods and non-API paths through', () => {
    expect(exercise('GET', '/api/projects', {}).passed).toBe(true);
    expect(exercise('POST', '/not-api', {}).passed).toBe(true);
  });

  it('requires the custom header on API mutations', () => {
    const result = exercise('POST', '/api/projects', { origin: 'http://localhost:8080' });
    expect(result).toMatchObject({ passed: false, status: 403 });
    expect(result.body?.message).toMatch(/missing x-stemdeck-csrf header/);
    expect(exercise('PUT', '/api/stems/1', { origin: 'http://localhost:8080', 'x-stemdeck-csrf': '1' }).passed).toBe(true);
  });

  it('refuses a foreign origin even with the header', () => {
    const result = exercise('DELETE', '/api/projects/1', { origin: 'https://evil.example', 'x-stemdeck-csrf': '1' });
    expect(result).toMatchObject({ passed: false, status: 403 });
    expect(result.body?.message).toMatch(/origin https:\/\/evil.example is not allowed/);
  });

  it('reads the origin from Referer when Origin is absent', () => {
    expect(requestOrigin({ headers: { referer: 'http://localhost:8080/app?x=1' } })).toBe('http://localhost:8080');
    expect(requestOrigin({ headers: {} })).toBeUndefined();
  });
});
