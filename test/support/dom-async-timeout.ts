// `npm test` runs the unit tests on the same two cores as the stack and its integration tests, where a
// page that renders in 50 ms alone can take over a second: Testing Library's findBy/waitFor give up after
// 1 s by default, which failed a CI run on a page that was right. Five seconds still fails a page that never
// shows what is asked. Only jsdom specs (the frontend's) load Testing Library.
if (typeof document !== 'undefined') {
  // Through the React bindings (the frontend's dev dependency), which hand it to the DOM library they share.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('@testing-library/react') as typeof import('@testing-library/react')).configure({ asyncUtilTimeout: 5_000 });
}
