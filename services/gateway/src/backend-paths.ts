/** The paths the gateway answers itself, each with everything under it; anything else is the single-page app or its files. */
const BACKEND_ROOTS = ['/api', '/ws', '/healthz', '/readyz'];

/** True for a backend root or a path under one (`/ws-worker.js` is a file of the app, `/ws/x` is not). */
export const isBackendPath = (path: string): boolean => BACKEND_ROOTS.some((root) => path === root || path.startsWith(`${root}/`));
