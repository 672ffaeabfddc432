// A browser test drives the whole stack: one minute per test unless the spec asks for more.
jest.setTimeout(60_000);
