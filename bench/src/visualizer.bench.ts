/**
 * Browser benchmark (not a test): the visualizer's frame time per mode at 1920x1080 in Debian's headless
 * Chromium (--disable-gpu: WebGL runs on SwiftShader, the CPU), and memory at the start and after minutes of
 * drawing with every mode in turn.
 *
 * A small standalone page (bundled here with esbuild from the frontend's own visualizer modules) feeds the real
 * VisualizerView a synthetic analyser signal at 128 BPM (kick, bass, hats); a frame's time is the beat detector's
 * push, the mode's draw and a one-pixel read-back that waits until the picture is really drawn (else a WebGL
 * or canvas draw only queues work). Goal: p95 ≤ 8 ms per mode. Memory: the page's JS heap after a forced garbage
 * collection, and the proportional set size (PSS) of all of Chromium's processes (GPU process included: leaked
 * WebGL contexts and textures show there).
 *
 * Run: npm run bench:visualizer [-- --minutes 5 --seconds-per-mode 10]   (defaults: 5 minutes, 10 s per mode)
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';

const ROOT = join(__dirname, '..', '..');
const VISUALIZER_DIR = join(ROOT, 'frontend', 'src', 'features', 'visuals', 'visualizer');
const WIDTH = 1920;
const HEIGHT = 1080;

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!(value > 0)) throw new Error(`--${name} must be a positive number`);
  return value;
}

/** The page's script: the real view and detector, a synthetic signal, and a timed run of one mode. */
const PAGE_SCRIPT = `
import { BeatDetector } from './beatDetector';
import { VisualizerView } from './visualizerView';
import { VISUAL_MODES, WEBGL_MODES } from './visualFrame';

const BPM = 128;
const host = document.getElementById('stage')!;
const view = new VisualizerView(host, { onProblem: (mode, reason) => { if (reason) (window as any).problems.push(mode + ': ' + reason); } });
(window as any).problems = [];
const waveform = new Uint8Array(2048);
const spectrum = new Uint8Array(1024);
const frame = { waveform, spectrum, pulse: 0, beat: false, bpm: BPM, timeMs: 0 };
const detector = new BeatDetector(48000 / 2048);
let seed = 1;
const noise = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 0xffffffff) * 2 - 1;

/** The analyser's view of a 128 BPM groove at time t (ms): a kick on every beat, a bass line, hats. */
function synthesize(t: number) {
  const beatMs = 60000 / BPM;
  const sinceKick = t % beatMs;
  const kick = Math.exp(-sinceKick / 90);
  const hat = Math.exp(-((t + beatMs / 2) % (beatMs / 2)) / 30);
  for (let i = 0; i < 2048; i++) {
    const s = i / 48000;
    const v = 0.6 * kick * Math.sin(2 * Math.PI * 55 * s) + 0.25 * Math.sin(2 * Math.PI * 110 * (s + t / 1000)) + 0.1 * hat * noise();
    waveform[i] = Math.max(0, Math.min(255, Math.round(128 + v * 127)));
  }
  for (let bin = 0; bin < 1024; bin++) {
    const low = bin < 8 ? 120 + 130 * kick : 0;
    const body = 170 * Math.exp(-bin / 120);
    const air = bin > 300 ? 90 * hat * Math.exp(-(bin - 300) / 400) : 0;
    spectrum[bin] = Math.max(0, Math.min(255, Math.round(Math.max(low, body + air) + 6 * noise())));
  }
  const reading = detector.push(spectrum, t);
  frame.beat = reading.beat;
  frame.pulse = reading.beat ? 1 : frame.pulse * 0.87;
  frame.bpm = reading.bpm;
  frame.timeMs = t;
}

/** Waits until the picture is drawn: a one-pixel read of the visible canvas. */
function sync() {
  const canvas = [...host.querySelectorAll('canvas')].find((c) => c.style.display !== 'none') as HTMLCanvasElement | undefined;
  if (!canvas) return;
  const gl = (canvas as any).__gl ?? canvas.getContext('webgl2');
  if (gl) {
    (canvas as any).__gl = gl;
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
  } else {
    canvas.getContext('2d')!.getImageData(0, 0, 1, 1);
  }
}

let clock = 0;
(window as any).drawOnly = [];
/** Draws \`mode\` on every animation frame for \`seconds\`; the frame times (ms) of all but the first second. */
(window as any).runMode = (mode: string, seconds: number) =>
  new Promise<number[]>((resolve) => {
    view.setMode(mode as any);
    const times: number[] = [];
    const started = performance.now();
    const step = () => {
      const now = performance.now();
      // A WebGL mode loads first (three.js, butterchurn): frames count once it draws.
      const ready = !WEBGL_MODES.has(mode as any) || [...host.querySelectorAll('canvas')].some((c) => c.style.display !== 'none');
      clock += 1000 / 60;
      const t0 = performance.now();
      synthesize(clock);
      view.draw(frame);
      const drawn = performance.now();
      sync();
      const t1 = performance.now();
      if (ready && now - started > 1000) {
        times.push(t1 - t0);
        (window as any).drawOnly.push(drawn - t0);
      }
      if (now - started < seconds * 1000) requestAnimationFrame(step);
      else resolve(times);
    };
    requestAnimationFrame(step);
  });
(window as any).modes = VISUAL_MODES;
(window as any).drawingSize = () => view.drawingSize;
`;

async function bundle(): Promise<string> {
  const result = await build({
    stdin: { contents: PAGE_SCRIPT, resolveDir: VISUALIZER_DIR, loader: 'ts', sourcefile: 'visualizer-bench-page.ts' },
    bundle: true,
    format: 'iife',
    write: false,
    minify: true,
    target: 'es2022',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  });
  return result.outputFiles[0]!.text;
}

function serve(script: string): Promise<{ url: string; close: () => void }> {
  const html = `<!doctype html><html><body style="margin:0;background:#000"><div id="stage" style="position:relative;width:${WIDTH}px;height:${HEIGHT}px"></div><script src="/page.js"></script></body></html>`;
  const server = createServer((request, response) => {
    const isScript = request.url === '/page.js';
    response.writeHead(200, { 'content-type': isScript ? 'text/javascript' : 'text/html' });
    response.end(isScript ? script : html);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() })));
}

/** Proportional set size (MiB) of `pid` and all its descendants (Chromium's browser, renderer, GPU processes). */
function treePssMiB(pid: number): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const parent = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // the process ended meanwhile
    }
  }
  let kib = 0;
  const visit = (id: number) => {
    try {
      kib += Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${id}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone
    }
    for (const child of children.get(id) ?? []) visit(child);
  };
  visit(pid);
  return Math.round((kib / 1024) * 10) / 10;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const round2 = (ms: number) => Math.round(ms * 100) / 100;

async function main(): Promise<void> {
  const minutes = option('minutes', 5);
  const secondsPerMode = option('seconds-per-mode', 10);
  const script = await bundle();
  const site = await serve(script);
  const server = await chromium.launchServer({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  const browserPid = server.process().pid!;
  const browser = await chromium.connect(server.wsEndpoint());
  try {
    const page = await browser.newPage({ viewport: { width: WIDTH, height: HEIGHT }, deviceScaleFactor: 1 });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(site.url);
    await page.waitForFunction(() => typeof (globalThis as unknown as { runMode?: unknown }).runMode === 'function');
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const memory = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
      const heap = metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? NaN;
      return { jsHeapMiB: Math.round((heap / 2 ** 20) * 10) / 10, chromiumPssMiB: treePssMiB(browserPid) };
    };
    const modes = (await page.evaluate('modes')) as string[];
    const times = new Map<string, number[]>(modes.map((mode) => [mode, []]));
    const drawn = new Map<string, string>();
    /** The same frames without the read-back: the time the page's own thread spends (the rest is the GPU's). */
    const submitTimes = new Map<string, number[]>(modes.map((mode) => [mode, []]));
    const runCycle = async () => {
      for (const mode of modes) {
        await page.evaluate('drawOnly.length = 0');
        const frameTimes = (await page.evaluate(`runMode(${JSON.stringify(mode)}, ${secondsPerMode})`)) as number[];
        times.get(mode)!.push(...frameTimes);
        submitTimes.get(mode)!.push(...((await page.evaluate('drawOnly')) as number[]));
        const size = (await page.evaluate('drawingSize()')) as { width: number; height: number };
        drawn.set(mode, `${size.width}x${size.height}`);
      }
    };

    // The first cycle loads and warms every mode; memory is measured after it, then after `minutes` more.
    await runCycle();
    const atStart = await memory();
    const started = Date.now();
    let cycles = 0;
    for (const mode of modes) {
      times.set(mode, []);
      submitTimes.set(mode, []);
    }
    while (Date.now() - started < minutes * 60_000) {
      await runCycle();
      cycles++;
      const elapsed = (Date.now() - started) / 60_000;
      console.log(`after ${elapsed.toFixed(1)} min (${cycles} cycles): ${JSON.stringify(await memory())}`);
    }
    const atEnd = await memory();
    const problems = (await page.evaluate('problems')) as string[];
    const perMode = Object.fromEntries(
      modes.map((mode) => {
        const sorted = [...times.get(mode)!].sort((a, b) => a - b);
        const submit = [...submitTimes.get(mode)!].sort((a, b) => a - b);
        return [
          mode,
          {
            drawingBuffer: drawn.get(mode),
            frames: sorted.length,
            medianMs: round2(percentile(sorted, 50)),
            p95Ms: round2(percentile(sorted, 95)),
            withinGoal: percentile(sorted, 95) <= 8,
            withoutReadBack: { medianMs: round2(percentile(submit, 50)), p95Ms: round2(percentile(submit, 95)) },
          },
        ];
      }),
    );
    console.log(
      JSON.stringify(
        {
          resolution: `${WIDTH}x${HEIGHT}`,
          chromium: browser.version(),
          webgl: 'SwiftShader (software: --disable-gpu)',
          minutes,
          secondsPerMode,
          cycles,
          perMode,
          memory: { atStart, atEnd, jsHeapGrowthMiB: round2(atEnd.jsHeapMiB - atStart.jsHeapMiB), pssGrowthMiB: round2(atEnd.chromiumPssMiB - atStart.chromiumPssMiB) },
          problems,
          pageErrors: errors,
        },
        null,
        2,
      ),
    );
  } finally {
    await browser.close();
    await server.close();
    site.close();
  }
}

main().catch((error: Error) => {
  console.error(error);
  process.exit(1);
});
