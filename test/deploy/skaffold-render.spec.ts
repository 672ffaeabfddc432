// `skaffold render` for skaffold.yaml's dev and prod profiles, run as an operator's CI would run it on a machine
// with no cluster, no Docker daemon and no network: HOME and KUBECONFIG point into an empty folder (no kube
// context), DOCKER_HOST at a socket that does not exist, the proxy variables at a closed port, helm from .tools/bin
// on PATH. `--digest-source=tag` is what makes this possible: skaffold builds nothing and names each image by the
// tag it would build (the default, `remote`, asks the registry for each image's digest; `local` builds, reading
// the base images from their registry). `--offline=true`, as skaffold.yaml's header gives the command, tells skaffold
// not to consult an API server (for this helm-rendered config the output is the same without it, kube context or
// not). The rendered objects must be the chart's as helm renders it with the profile's values files, with each
// process's image set to the one skaffold builds for it.
// skaffold is built by scripts/skaffold-tool.mjs and helm by scripts/helm-tools.mjs (Go module proxy, cached in .tools).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';

// js-yaml comes with jest (its coverage loader).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { safeLoadAll, safeDump } = require('js-yaml') as { safeLoadAll: (text: string) => unknown[]; safeDump: (value: unknown) => string };

const ROOT = resolve(__dirname, '..', '..');
const CHART = join(ROOT, 'deploy', 'helm', 'stemdeck');
const PROCESSES = ['gateway', 'media', 'jobs', 'sessions', 'export'] as const;
/** What skaffold.yaml promises: the release, its namespace, and the values files each profile adds to the chart's. */
const RELEASE = 'stemdeck';
const NAMESPACE = 'stemdeck';
const PROFILES = [
  { profile: 'dev', valuesFiles: [join(ROOT, 'deploy', 'helm', 'values-dev.yaml')], tagOf: ['rev-list', '-1', 'HEAD', '--abbrev-commit'] },
  { profile: 'prod', valuesFiles: [], tagOf: ['describe', '--tags', '--always'] },
] as const;
const DEFAULT_REPO = 'registry.example.com/stemdeck';
const TAG = '1.4.2-rc.1';

type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string> }; spec?: any };

let skaffoldBin: string;
let helmBin: string;
const scratch = mkdtempSync(join(tmpdir(), 'stemdeck-skaffold-'));
const home = join(scratch, 'home');

/** Nothing from this machine's own setup: no SKAFFOLD_* defaults, no kube context, no Docker daemon, no network. */
function isolatedEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(SKAFFOLD_|KUBE|HELM_|DOCKER_|HTTPS?_PROXY$|NO_PROXY$)/i.test(name)));
  const closed = 'http://127.0.0.1:9';
  return {
    ...env,
    HOME: home,
    KUBECONFIG: join(home, '.kube', 'config'),
    DOCKER_HOST: `unix://${join(home, 'no-docker.sock')}`,
    HTTP_PROXY: closed,
    HTTPS_PROXY: closed,
    http_proxy: closed,
    https_proxy: closed,
    SKAFFOLD_UPDATE_CHECK: 'false',
    PATH: [dirname(helmBin), env.PATH].join(delimiter),
  };
}

function skaffoldRender(args: string[]) {
  const out = join(mkdtempSync(join(scratch, 'out-')), 'manifests.yaml');
  const result = spawnSync(
    skaffoldBin,
    ['render', '--digest-source=tag', '--offline=true', `--default-repo=${DEFAULT_REPO}`, '--interactive=false', '--update-check=false', `--output=${out}`, ...args],
    { cwd: ROOT, encoding: 'utf8', env: isolatedEnv(), timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
  );
  if (result.error) throw result.error;
  let text = '';
  try {
    text = readFileSync(out, 'utf8');
  } catch {
    // no output file: the run failed before writing; status and messages say why
  }
  return { status: result.status, text, log: `${result.stdout}${result.stderr}` };
}

const parse = (text: string) => safeLoadAll(text).filter((doc): doc is K8sObject => !!doc && typeof doc === 'object');
const imagesOf = (objects: K8sObject[]) =>
  Object.fromEntries(objects.filter((o) => o.kind === 'Deployment').map((o) => [o.metadata.name, o.spec.template.spec.containers.map((c: { image: string }) => c.image)]));
const expectedImages = (tag: string) => Object.fromEntries(PROCESSES.map((name) => [`${RELEASE}-stemdeck-${name}`, [`${DEFAULT_REPO}/${name}:${tag}`]]));

/** The same chart rendered by helm alone, with the images skaffold should have set. */
function helmTemplate(valuesFiles: readonly string[], tag: string) {
  const sets = PROCESSES.flatMap((name) => ['--set', `${name}.image=${DEFAULT_REPO}/${name}:${tag}`]);
  const helmHome = join(home, 'helm');
  const result = spawnSync(helmBin, ['template', RELEASE, CHART, '--namespace', NAMESPACE, ...valuesFiles.flatMap((file) => ['-f', file]), ...sets], {
    encoding: 'utf8',
    env: { ...process.env, HELM_CACHE_HOME: join(helmHome, 'cache'), HELM_CONFIG_HOME: join(helmHome, 'config'), HELM_DATA_HOME: join(helmHome, 'data') },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`helm template failed:\n${result.stderr}`);
  return parse(result.stdout);
}

function git(args: readonly string[]) {
  const result = spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout.trim();
}

beforeAll(() => {
  // Builds the tools on the first run (minutes); cached afterwards. A failure names what is missing.
  const tools = spawnSync(process.execPath, [join(ROOT, 'scripts', 'helm-tools.mjs')], { encoding: 'utf8', timeout: 25 * 60 * 1000 });
  if (tools.status !== 0) throw new Error(`scripts/helm-tools.mjs could not provide helm: ${tools.error?.message ?? ''}\n${tools.stderr}`);
  helmBin = (JSON.parse(tools.stdout) as { helm: string }).helm;
  const skaffold = spawnSync(process.execPath, [join(ROOT, 'scripts', 'skaffold-tool.mjs')], { encoding: 'utf8', timeout: 25 * 60 * 1000 });
  if (skaffold.status !== 0) throw new Error(`scripts/skaffold-tool.mjs could not provide skaffold: ${skaffold.error?.message ?? ''}\n${skaffold.stderr}`);
  skaffoldBin = (JSON.parse(skaffold.stdout) as { skaffold: string }).skaffold;
  mkdirSync(join(home, '.kube'), { recursive: true });
}, 52 * 60 * 1000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.each(PROFILES)('skaffold render -p $profile', ({ profile, valuesFiles, tagOf }) => {
  it("renders the chart with the profile's values, each Deployment running the image skaffold builds for its process", () => {
    const result = skaffoldRender(['-p', profile, `--tag=${TAG}`]);
    expect(result).toMatchObject({ status: 0 }); // on failure, the diff shows skaffold's messages
    const objects = parse(result.text);
    expect(imagesOf(objects)).toEqual(expectedImages(TAG));
    // Everything else is the chart as helm renders it with the same values: nothing lost, nothing added.
    expect(objects).toEqual(helmTemplate(valuesFiles, TAG));
    expect(objects.length).toBeGreaterThan(PROCESSES.length * 2);
  });

  it(`tags the images as the profile's tagPolicy says (git ${tagOf.join(' ')})`, () => {
    const result = skaffoldRender(['-p', profile]);
    expect(result).toMatchObject({ status: 0 });
    const ref = git(tagOf).replace(/[^a-zA-Z0-9-._]/g, '_');
    const images = imagesOf(parse(result.text));
    // "-dirty" when the checkout has uncommitted changes (skaffold's git tagger adds it)
    const tag = Object.values(images)[0][0].split(':').pop();
    expect([ref, `${ref}-dirty`]).toContain(tag);
    expect(images).toEqual(expectedImages(tag!));
  });
});

describe('skaffold render fails', () => {
  it('for a profile skaffold.yaml does not have', () => {
    const result = skaffoldRender(['-p', 'staging', `--tag=${TAG}`]);
    expect(result.status).not.toBe(0);
    expect(result.log).toMatch(/staging/);
    expect(result.text).toBe('');
  });

  it('when the chart refuses a values file (skaffold passes helm\'s failure on)', () => {
    // skaffold.yaml as it is, its chart path absolute, with a values file the chart's schema refuses
    const config = safeLoadAll(readFileSync(join(ROOT, 'skaffold.yaml'), 'utf8'))[0] as any;
    const release = config.manifests.helm.releases[0];
    release.chartPath = join(ROOT, release.chartPath);
    release.valuesFiles = [join(__dirname, 'fixtures', 'bad-typo.yaml')];
    const dir = mkdtempSync(join(scratch, 'bad-'));
    writeFileSync(join(dir, 'skaffold.yaml'), safeDump(config));
    const result = skaffoldRender(['-f', join(dir, 'skaffold.yaml'), '-p', 'prod', `--tag=${TAG}`]);
    expect(result.status).not.toBe(0);
    expect(result.log).toMatch(/values don't meet the specifications of the schema/);
    expect(result.text).toBe('');
  });
});
