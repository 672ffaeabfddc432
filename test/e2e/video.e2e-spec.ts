import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { chromiumPerTest, expectReadableToast, signInThroughKeycloak } from '../support/browser';
import { BASE_URL } from '../support/env';
import { makeClip } from '../support/media';
import { expectInViewport, uploadThroughChooser, waitForStems } from '../support/studio';

jest.setTimeout(300_000);

/** From now on, every label of the Generate button, every progress value and every time-left line the panel shows. */
async function recordVideoStates(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen = { labels: [] as string[], progress: [] as number[], remaining: [] as string[] };
    (window as unknown as { videoStatesSeen: typeof seen }).videoStatesSeen = seen;
    const record = () => {
      const label = document.querySelector('[data-testid="start-video"]')?.textContent?.trim();
      if (label && seen.labels.at(-1) !== label) seen.labels.push(label);
      const progress = document.querySelector('[data-testid="video-progress"]')?.getAttribute('data-progress');
      if (progress !== null && progress !== undefined && seen.progress.at(-1) !== Number(progress)) seen.progress.push(Number(progress));
      const remaining = document.querySelector('[data-testid="video-remaining"]')?.textContent?.trim();
      if (remaining && seen.remaining.at(-1) !== remaining) seen.remaining.push(remaining);
    };
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    record();
  });
}
const videoStatesSeen = (page: Page) =>
  page.evaluate(() => (window as unknown as { videoStatesSeen: { labels: string[]; progress: number[]; remaining: string[] } }).videoStatesSeen);

describe('Video generation in Chromium', () => {
  const chromium = chromiumPerTest({ width: 1400, height: 1000 });
  let page: Page;

  beforeEach(async () => {
    page = chromium.page;
    await signInThroughKeycloak(page);
    await page.goto(`${BASE_URL}/app`);
    await page.getByTestId('upload-panel').waitFor();
  });

  it('generates a 720p chorus video of the song with real progress, plays it and downloads it', async () => {
    await page.getByRole('button', { name: 'Video & Visuals' }).click();
    const panel = page.getByTestId('video-panel');
    await panel.getByText('No project selected').waitFor();
    expect(await page.getByTestId('start-video').isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Upload & Split' }).click();
    await uploadThroughChooser(page, makeClip('e2e-video-42s.wav', 42));
    await waitForStems(page, 120_000);
    await page.getByTestId('separation-fast').waitFor({ state: 'detached', timeout: 120_000 });

    await page.getByRole('button', { name: 'Video & Visuals' }).click();
    const start = page.getByTestId('start-video');
    await start.waitFor();
    await page.waitForFunction(() => !(document.querySelector('[data-testid="start-video"]') as HTMLButtonElement | null)?.disabled, undefined, { timeout: 30_000 });
    expect(await start.innerText()).toBe('Generate Video');
    expect(await page.getByLabel('Style prompt').inputValue()).not.toBe('');
    const durations = await page.getByLabel('Duration').locator('option').allInnerTexts();
    expect(durations).toEqual(['Full Track (0:42)', 'Chorus Loop (0:30)', 'Custom Range']);
    await page.getByLabel('Style prompt').fill('ocean waves drifting under a night sky');
    await page.getByLabel('Duration').selectOption('chorus');
    await page.getByLabel('Resolution').selectOption('720p');
    await recordVideoStates(page);

    const sent = page.waitForRequest((request) => request.url().endsWith('/api/jobs/runway-video') && request.method() === 'POST');
    await start.click();
    expect((await sent).postDataJSON()).toMatchObject({ parameters: { prompt: 'ocean waves drifting under a night sky', duration: 'chorus', resolution: '720p' } });
    await expectReadableToast(page, 'Video generation started');
    await page
      .getByText('Video generation complete!', { exact: true })
      .waitFor({ timeout: 180_000 })
      .catch(async (error: Error) => {
        throw new Error(`${error.message}\nseen: ${JSON.stringify(await videoStatesSeen(page))}\npanel: ${await panel.innerText()}`);
      });
    await expectReadableToast(page, 'Video generation complete!');

    const seen = await videoStatesSeen(page);
    expect(seen.labels[0]).toBe('Generate Video');
    expect(seen.labels.indexOf('Starting...')).toBeGreaterThan(0);
    expect(seen.labels.indexOf('Generating...')).toBeGreaterThan(seen.labels.indexOf('Starting...'));
    expect(seen.labels.at(-1)).toBe('Generate Video');
    expect(seen.progress.length).toBeGreaterThan(1);
    expect(seen.progress).toEqual([...seen.progress].sort((a, b) => a - b));
    // The time left was measured while it rendered.
    expect(seen.remaining.some((line) => /^\d+% · \d+ seconds remaining$/.test(line))).toBe(true);

    await expectInViewport(page, 'video-result');
    expect(await page.getByTestId('video-provider').innerText()).toBe('Rendered locally');
    expect(await page.getByTestId('video-look').innerText()).toMatch(/^Look: \w+ colours, \w+, \w+ motion$/);
    expect(await page.getByTestId('video-span').innerText()).toMatch(/^\d:\d\d–\d:\d\d of the song · 720p \(1280×720\) · 30 fps$/);

    // The player plays it: metadata of a 30 s, 1280x720 video, and its clock advances.
    const player = page.getByTestId('video-player');
    await player.scrollIntoViewIfNeeded();
    await page.waitForFunction(() => (document.querySelector('[data-testid="video-player"]') as HTMLVideoElement).readyState >= 1, undefined, { timeout: 20_000 });
    const meta = await player.evaluate((video: HTMLVideoElement) => ({ duration: video.duration, width: video.videoWidth, height: video.videoHeight }));
    expect(meta).toMatchObject({ width: 1280, height: 720 });
    expect(Math.abs(meta.duration - 30)).toBeLessThan(0.5);
    await player.evaluate((video: HTMLVideoElement) => {
      video.muted = true;
      return video.play();
    });
    await page.waitForFunction(() => (document.querySelector('[data-testid="video-player"]') as HTMLVideoElement).currentTime > 1, undefined, { timeout: 20_000 });
    // Seeking (served with byte ranges) lands where asked.
    await player.evaluate((video: HTMLVideoElement) => {
      video.currentTime = 20;
    });
    await page.waitForFunction(() => (document.querySelector('[data-testid="video-player"]') as HTMLVideoElement).currentTime >= 20, undefined, { timeout: 20_000 });
    await player.evaluate((video: HTMLVideoElement) => video.pause());

    const download = page.waitForEvent('download');
    await page.getByTestId('download-video').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/ - video\.mp4$/);
    const path = (await file.path())!;
    expect(statSync(path).size).toBeGreaterThan(100_000);
    const streams = (JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', path]).toString()) as { streams: Array<{ codec_name: string }> }).streams;
    expect(streams.map((stream) => stream.codec_name).sort()).toEqual(['aac', 'h264']);
  });
});
