/// <reference lib="dom" />
/**
 * Browser benchmark (not a test): how long a mixer change made in one tab takes to reach another tab of
 * the same signed-in user. Two Chromium pages open the same project; the first clicks a stem's mute
 * button, the second waits for its own mute button to follow. The second page applies the change to its
 * audio graph (the stem player's gains) before React re-renders the button, so the time read at the
 * button is an upper bound for the audio. Times are wall-clock (performance.timeOrigin + now) in each page.
 * Starts the real stack on the test ports. Run: npm run bench:tab-sync [-- --runs 30]
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { STEM_TYPES } from '@stemdeck/audio';
import type { SignedInAgent } from '@stemdeck/test-client';
import { withSignedInBrowser } from './support/stack';

function argument(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
}

function renderClip(dataDir: string): string {
  const path = join(dataDir, '..', 'bench', 'tab-sync-6s.wav');
  mkdirSync(join(path, '..'), { recursive: true });
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=220:duration=6', '-ac', '2', path]);
  return path;
}

/** Uploads the clip and waits until its four stems are stored; returns the project id. */
async function uploadProject(agent: SignedInAgent, clip: string): Promise<string> {
  const form = new FormData();
  form.append('audio', new Blob([readFileSync(clip)], { type: 'audio/wav' }), 'tab-sync.wav');
  const response = await agent.fetch('/api/upload', { method: 'POST', body: form, headers: { 'x-stemdeck-csrf': '1' } });
  if (response.status !== 201) throw new Error(`upload answered ${response.status}: ${await response.text()}`);
  const projectId = ((await response.json()) as { project: { id: string } }).project.id;
  for (let tries = 0; tries < 600; tries++) {
    const stems = (await (await agent.fetch(`/api/projects/${projectId}/stems`)).json()) as unknown[];
    if (Array.isArray(stems) && stems.length === 4) return projectId;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the stems did not arrive within 60 s');
}

async function openStudio(page: Page, baseUrl: string, projectId: string): Promise<void> {
  await page.addInitScript((id) => localStorage.setItem('stemdeck.openProject', id), projectId);
  await page.goto(`${baseUrl}/app`);
  await page.locator('[data-testid="stem-mixer"][data-decoded="true"]').waitFor({ timeout: 30_000 });
  await page.locator('[data-testid="sidebar"] [data-testid="status-apis"][data-state="connected"]').waitFor();
}

async function main(): Promise<void> {
  const runs = argument('runs', 30);
  await withSignedInBrowser(async ({ stack, agent, context }) => {
    const projectId = await uploadProject(agent, renderClip(stack.dataDir));
    const [changer, follower] = [await context.newPage(), await context.newPage()];
    for (const page of [changer, follower]) await openStudio(page, stack.publicUrl, projectId);

    const latencies: number[] = [];
    for (let run = 0; run < runs + 2; run++) {
      const label = `Mute ${STEM_TYPES[run % STEM_TYPES.length]}`;
      const pressed = (await changer.getByRole('button', { name: label }).getAttribute('aria-pressed')) !== 'true';
      await follower.evaluate(
        ({ label, pressed }) => {
          const button = document.querySelector(`button[aria-label="${label}"]`)!;
          (window as unknown as { followed: Promise<number> }).followed = new Promise((resolve) => {
            const observer = new MutationObserver(() => {
              if (button.getAttribute('aria-pressed') !== String(pressed)) return;
              observer.disconnect();
              resolve(performance.timeOrigin + performance.now());
            });
            observer.observe(button, { attributes: true, attributeFilter: ['aria-pressed'] });
          });
        },
        { label, pressed },
      );
      const changedAt = await changer.evaluate((label) => {
        const at = performance.timeOrigin + performance.now();
        (document.querySelector(`button[aria-label="${label}"]`) as HTMLButtonElement).click();
        return at;
      }, label);
      const followedAt = await follower.evaluate(() => (window as unknown as { followed: Promise<number> }).followed);
      if (run >= 2) latencies.push(followedAt - changedAt); // the first two warm up both pages
      await changer.waitForTimeout(400); // lets the change settle (the old client saved 300 ms after it) before the next
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
    const ms = (value: number) => Math.round(value * 10) / 10;
    console.log('runs (ms):', JSON.stringify(latencies.map(ms)));
    console.log(JSON.stringify({ runs: latencies.length, minMs: ms(sorted[0]!), medianMs: ms(at(0.5)), p90Ms: ms(at(0.9)), maxMs: ms(sorted.at(-1)!) }, null, 2));
  });
}

main().catch((error: Error) => {
  console.error(error);
  process.exit(1);
});
