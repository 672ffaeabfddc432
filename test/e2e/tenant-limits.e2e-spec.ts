import mongoose from 'mongoose';
import { formatStorage } from '@stemdeck/proto/vocabulary';
import { chromiumPerTest, expectReadableToast, insideViewport, seenText, signInThroughKeycloak } from '../support/browser';
import { BASE_URL } from '../support/env';
import { makeClip, ownerIdOf, upload } from '../support/media';
import { signInExtraUser } from '../support/sessions';

jest.setTimeout(120_000);

const USERNAME = 'quota-viewer';

/**
 * The studio shows a person their storage (used of quota) where they manage projects, and an upload that
 * does not fit is refused with the server's own words in the upload's error toast, nothing sent to storage.
 */
describe('storage usage in the studio', () => {
  const chromium = chromiumPerTest({ width: 1440, height: 900 });
  let connection: mongoose.Connection;

  beforeAll(() => mongoose.createConnection(process.env.MONGODB_URI!).asPromise().then((made) => void (connection = made)));
  afterAll(() => connection.close());

  it('reads "Storage: … of …" in the project library, and a too-large upload gets the quota message in its toast', async () => {
    // Made in the test realm (and signed in once, so the studio knows them), then given a 200 KB quota.
    const agent = await signInExtraUser(USERNAME, 'Quota', 'Viewer');
    await connection.collection('users').updateOne({ _id: (await ownerIdOf(agent)) as never }, { $set: { storageQuotaBytes: 200 * 1024 } });

    const page = chromium.page;
    await signInThroughKeycloak(page, USERNAME, `${USERNAME}-password`);
    await page.goto(`${BASE_URL}/app`);
    const line = page.getByTestId('storage-usage');
    await line.waitFor();
    const usage = ((await (await agent.fetch('/api/me/usage')).json()) as { storage: { usedBytes: number; quotaBytes: number } }).storage;
    expect(await line.innerText()).toBe(`Storage: ${formatStorage(usage.usedBytes)} of ${formatStorage(usage.quotaBytes)}`);
    expect(await line.innerText()).toBe('Storage: 0 MB of 0.2 MB');
    await line.scrollIntoViewIfNeeded();
    const seen = await seenText(line);
    expect(insideViewport(seen)).toBe(true);
    expect(seen).toMatchObject({ opacity: 1, clipped: false, onTop: true });
    expect(seen.contrast).toBeGreaterThanOrEqual(4.5);

    // A 4 s WAV (about 700 KB) does not fit in 200 KB: the toast says so in plain words.
    const panel = page.getByTestId('upload-panel');
    await panel.locator('input[type="file"]').setInputFiles(makeClip('quota-toast-4s.wav', 4));
    await page.getByRole('button', { name: 'Split into Stems' }).click();
    await expectReadableToast(page, 'Upload failed');
    const description = page.getByTestId('toast').locator('[data-part="description"]');
    expect(await description.innerText()).toMatch(/^This upload needs 0\.\d+ MB but only 0\.2 MB of your 0\.2 MB is left \(0 MB used\)\. Delete a project to make room\.$/);
    expect(insideViewport(await seenText(description))).toBe(true);
    expect(await line.innerText()).toBe('Storage: 0 MB of 0.2 MB');
  });
});

/**
 * A song uploaded while the person's separations at once are all busy is not refused: the studio says it
 * waits for their other songs and its place in line, and it gets its stems when its turn comes.
 */
describe('separations waiting their turn in the studio', () => {
  const chromium = chromiumPerTest({ width: 1440, height: 900 });

  it('shows "Waiting for your other songs … 1st in line", then the song separates', async () => {
    const username = 'line-viewer';
    const agent = await signInExtraUser(username, 'Line', 'Viewer');
    const page = chromium.page;
    await signInThroughKeycloak(page, username, `${username}-password`);
    await page.goto(`${BASE_URL}/app`);
    const panel = page.getByTestId('upload-panel');
    await panel.locator('input[type="file"]').setInputFiles(makeClip('line-viewer-12s.wav', 12));

    // Two long songs take both of this person's separation slots (the stack runs 2 at once per user).
    const long = makeClip('line-viewer-300s.flac', 300);
    const busy = await Promise.all([upload(agent, long, { fileName: 'long one.flac' }), upload(agent, long, { fileName: 'long two.flac' })]);
    expect(busy.map((answer) => answer.status)).toEqual([201, 201]);
    await page.getByRole('button', { name: 'Split into Stems' }).click();

    const waiting = page.locator('[data-testid="separation-fast"][data-queue-position="1"]');
    await waiting.waitFor({ timeout: 30_000 });
    const words = waiting.getByText(/^Waiting for your other songs to finish separating: 1st in line \(fast\)$/);
    await words.scrollIntoViewIfNeeded();
    const seen = await seenText(words);
    expect(insideViewport(seen)).toBe(true);
    expect(seen).toMatchObject({ opacity: 1, clipped: false, onTop: true });
    expect(seen.contrast).toBeGreaterThanOrEqual(4.5);

    // Its turn comes: it separates and the progress line goes.
    await page.getByTestId('separation-fast').waitFor({ state: 'detached', timeout: 120_000 });
    expect(await page.getByTestId('separation-progress').count()).toBe(0);
  }, 180_000);
});
