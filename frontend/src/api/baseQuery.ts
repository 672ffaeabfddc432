import { fetchBaseQuery, type BaseQueryFn, type FetchArgs } from '@reduxjs/toolkit/query/react';

/** Header the gateway requires on mutations (CSRF protection); a cross-site page cannot send it. */
export const CSRF_HEADER = 'x-stemdeck-csrf';

export interface ApiError {
  status: number | 'FETCH_ERROR' | 'PARSING_ERROR' | 'TIMEOUT_ERROR' | 'CUSTOM_ERROR';
  data?: unknown;
  /** "status: body", or the status text when the body is empty. */
  message: string;
}

export type ApiArgs = FetchArgs & {
  /** Resolve a 401 to `null` instead of an error (the current-user call uses it). */
  nullOn401?: boolean;
};

export function httpErrorMessage(status: number, body: unknown, statusText: string): string {
  const text = typeof body === 'string' ? body : body === undefined || body === null ? '' : JSON.stringify(body);
  return `${status}: ${text || statusText}`;
}

const rawBaseQuery = fetchBaseQuery({
  baseUrl: '/api',
  credentials: 'include',
  // fetchBaseQuery sets a JSON content type only when there is a body to send.
  prepareHeaders: (headers) => {
    headers.set(CSRF_HEADER, '1');
    return headers;
  },
  responseHandler: 'content-type',
});

/** Every request includes cookies; non-OK answers become errors carrying "status: body" text. */
export const studioBaseQuery: BaseQueryFn<string | ApiArgs, unknown, ApiError> = async (args, api, extraOptions) => {
  const result = await rawBaseQuery(args, api, extraOptions);
  if (!result.error) return { data: result.data, meta: result.meta };
  const { error } = result;
  if (typeof error.status === 'number') {
    if (typeof args !== 'string' && args.nullOn401 && error.status === 401) return { data: null, meta: result.meta };
    return { error: { status: error.status, data: error.data, message: httpErrorMessage(error.status, error.data, result.meta?.response?.statusText ?? '') } };
  }
  return { error: { status: error.status, data: 'data' in error ? error.data : undefined, message: error.error } };
};
