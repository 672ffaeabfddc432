/// <reference lib="dom" />
/**
 * Browser benchmark (not a test): the median time, over 5 uploads of a 30-second clip in Debian's
 * Chromium, from "the upload's last byte left the browser" to
 *   - stems playable: the progressive first seconds of all four stems fetched and decoded, and
 *   - first audible stem: Play pressed at that moment (in the page, no human reaction time) and a stem's
 *     analyser above −60 dBFS,
 * read from the app's own performance marks (frontend/src/lib/marks.ts). Goal: ≤ 1 s.
 * Starts the real stack on the test ports. Run: npm run bench:first-audible
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadEvalSet } from './eval-set/load';
import { MIXTURE_FILE } from './eval-set/meta';
import { withSignedInBrowser } from './support/stack';

const RUNS = 5;

function renderClip(dataDir: string): string {
  const path = join(dataDir, '..', 'bench', 'clip-30s.mp3');
  mkdirSync(join(path, '..'), { recursive: true });
  let source = ['-f', 'lavfi', '-i', 'sine=frequency=220:duration=30', '-ac', '2'];
  try {
    source = ['-i', join(loadEvalSet()[0]!.dir, MIXTURE_FILE), '-t', '30'];
  } catch {
    console.log('no evaluation set (npm run bench:eval-set): using a 30 s sine');
  }
  execFileSync('ffmpeg', ['-v', 'error', '-y', ...source, '-b:a', '192k', path]);
  return path;
}

async function main(): Promise<void> {
  await withSignedInBrowser(async ({ stack, context }) => {
    const clip = renderClip(stack.dataDir);
    const page = await context.newPage();
    await page.goto(`${stack.publicUrl}/app`);
    await page.getByTestId('upload-panel').waitFor();
    const runs: Array<{ playableMs: number; audibleMs: number }> = [];
    for (let run = 0; run < RUNS; run++) {
      await page.evaluate(() => performance.clearMarks());
      // With a project open the upload area folds into an "Upload another" bar that opens the same chooser.
      // Waited together, so a failed click cannot leave the chooser's wait rejecting unhandled (and the stack running).
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        page.getByRole('button', { name: /^(Choose File|Upload another)$/ }).first().click(),
      ]);
      await chooser.setFiles(clip);
      await page.getByRole('button', { name: 'Split into Stems' }).click();
      const marks = await page.evaluate(async () => {
        // Only marks made after `after` count: the previous run's whole stems can still finish decoding (and mark
        // "playable") after this run's marks were cleared.
        const mark = (name: string, after: number) => performance.getEntriesByName(name).find((entry) => entry.startTime >= after)?.startTime;
        const until = async (name: string, after = 0) => {
          while (mark(name, after) === undefined) await new Promise((r) => setTimeout(r, 2));
          return mark(name, after)!;
        };
        const sent = await until('stemdeck:upload-sent');
        const playable = await until('stemdeck:stems-playable', sent);
        (document.querySelector('button[aria-label="Play"]') as HTMLButtonElement).click();
        const audible = await until('stemdeck:first-audible', playable);
        (document.querySelector('button[aria-label="Stop"]') as HTMLButtonElement).click();
        return { sent, playable, audible };
      });
      runs.push({ playableMs: Math.round(marks.playable - marks.sent), audibleMs: Math.round(marks.audible - marks.sent) });
      // The whole stems land before the next upload: a late stems_ready of this project would otherwise mark
      // "playable" inside the next run (a fixed wait was too short on a busy machine).
      await page.waitForFunction(
        () => !document.body.innerText.includes('separating the rest') && !document.querySelector('[data-testid="separation-progress"]'),
        undefined,
        { timeout: 120_000 },
      );
      await page.waitForTimeout(500);
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    console.log('runs:', JSON.stringify(runs));
    console.log(
      JSON.stringify(
        { clipSeconds: 30, runs: RUNS, medianStemsPlayableMs: median(runs.map((r) => r.playableMs)), medianFirstAudibleMs: median(runs.map((r) => r.audibleMs)) },
        null,
        2,
      ),
    );
  });
}

main().catch((error: Error) => {
  console.error(error);
  process.exit(1);
});
