import type { Project, SeparationJob } from '../../api/mediaTypes';
import { planConvergence } from './converge';
import type { ProjectState } from './projectSlice';
import type { MixerStem } from './stems';

const project = { id: 'p1', activeEngine: null } as Project;
const job = (engine: SeparationJob['engine'], status: SeparationJob['status'], progress = 0, error: string | null = null): SeparationJob => ({
  id: `${engine}-job`,
  projectId: 'p1',
  engine,
  status,
  progress,
  error,
});
const stems = (engine: MixerStem['engine']): MixerStem[] =>
  (['vocals', 'drums', 'bass', 'other'] as const).map((type) => ({
    id: `p1-${engine}-${type}`,
    projectId: 'p1',
    type,
    engine,
    url: `/api/stems/p1-${engine}-${type}/audio`,
    volume: 0,
    muted: false,
    soloed: false,
    quality: 'good',
    version: 'original' as const,
    enhanced: null,
  }));
const local = (state: Partial<ProjectState> = {}): ProjectState => ({ project, stems: [], partialSeconds: null, jobs: {}, decodedVersion: 0, ...state });

describe('planConvergence', () => {
  it('loads the stored stems when the server finished a job whose events this page never saw', () => {
    const plan = planConvergence({ id: 'p1', activeEngine: 'fast', jobs: [job('fast', 'completed', 1)] }, local({ jobs: { fast: { status: 'running', progress: 0.2 } } }));
    expect(plan).toEqual({ loadStems: true, loadPartial: null, analysed: null, running: [], finished: ['fast'], failed: [] });
  });

  it('keeps a job running (so polling goes on) while the server has it completed but its engine not active yet', () => {
    // Media stores the completion, then the active engine; a read between the two sees both halves.
    const plan = planConvergence({ id: 'p1', activeEngine: null, jobs: [job('fast', 'completed', 1)] }, local({ jobs: { fast: { status: 'running', progress: 0.6 } } }));
    expect(plan).toEqual({ loadStems: false, loadPartial: null, analysed: null, running: [{ engine: 'fast', progress: 1 }], finished: [], failed: [] });
    // A reprocess: the hybrid job reads completed while fast is still the active engine.
    const reprocess = planConvergence({ id: 'p1', activeEngine: 'fast', jobs: [job('fast', 'completed', 1), job('hybrid', 'completed', 1)] }, local({ stems: stems('fast'), jobs: { hybrid: { status: 'running', progress: 0.5 } } }));
    expect(reprocess.finished).toEqual([]);
    expect(reprocess.running).toEqual([{ engine: 'hybrid', progress: 1 }]);
  });

  it("loads a running job's first seconds when nothing is loaded (their event came before the project was open here)", () => {
    const running = { ...job('fast', 'processing', 0.3), partialSeconds: 5 };
    expect(planConvergence({ id: 'p1', activeEngine: null, jobs: [running] }, local()).loadPartial).toEqual({ engine: 'fast', seconds: 5 });
    // Not before they are stored, and never over stems already loaded.
    expect(planConvergence({ id: 'p1', activeEngine: null, jobs: [{ ...running, partialSeconds: null }] }, local()).loadPartial).toBeNull();
    expect(planConvergence({ id: 'p1', activeEngine: null, jobs: [running] }, local({ stems: stems('fast'), partialSeconds: 5 })).loadPartial).toBeNull();
  });

  it('takes the analysis the server has when the studio still shows none (its event was missed)', () => {
    const unanalysed = local({ project: { ...project, bpm: null, key: null, duration: 30 } });
    const server = { id: 'p1', activeEngine: null, jobs: [], bpm: 128, key: 'A minor', duration: 29.98 };
    expect(planConvergence(server, unanalysed).analysed).toEqual({ bpm: 128, key: 'A minor', duration: 29.98 });
    expect(planConvergence({ ...server, bpm: null, key: null }, unanalysed).analysed).toBeNull();
    expect(planConvergence(server, local({ project: { ...project, bpm: 128, key: 'A minor', duration: 29.98 } })).analysed).toBeNull();
  });

  it('replaces the first seconds, and another engine\'s stems, with the active engine\'s whole stems', () => {
    expect(planConvergence({ id: 'p1', activeEngine: 'fast', jobs: [] }, local({ stems: stems('fast'), partialSeconds: 5 })).loadStems).toBe(true);
    expect(planConvergence({ id: 'p1', activeEngine: 'hybrid', jobs: [] }, local({ stems: stems('fast') })).loadStems).toBe(true);
    expect(planConvergence({ id: 'p1', activeEngine: 'fast', jobs: [] }, local({ stems: stems('fast') })).loadStems).toBe(false);
    // Stems that name no engine: nothing to compare, nothing reloaded.
    expect(planConvergence({ id: 'p1', activeEngine: 'fast', jobs: [] }, local({ stems: stems(null) })).loadStems).toBe(false);
  });

  it('shows a job in progress without ever moving its progress backwards', () => {
    expect(planConvergence({ id: 'p1', activeEngine: null, jobs: [job('fast', 'processing', 0.4)] }, local()).running).toEqual([{ engine: 'fast', progress: 0.4 }]);
    const ahead = local({ jobs: { fast: { status: 'running', progress: 0.7 } } });
    expect(planConvergence({ id: 'p1', activeEngine: null, jobs: [job('fast', 'queued', 0.4)] }, ahead).running).toEqual([{ engine: 'fast', progress: 0.7 }]);
    // The stems_ready event came before the job's record says completed: nothing runs any more.
    expect(planConvergence({ id: 'p1', activeEngine: 'fast', jobs: [job('fast', 'processing', 1)] }, local({ stems: stems('fast') })).running).toEqual([]);
  });

  it('reports a failure the page missed, once', () => {
    const running = local({ jobs: { hybrid: { status: 'running', progress: 0.1 } } });
    expect(planConvergence({ id: 'p1', activeEngine: null, jobs: [job('hybrid', 'failed', 0, 'worker crashed')] }, running).failed).toEqual([
      { engine: 'hybrid', message: 'worker crashed' },
    ]);
    const alreadyShown = local({ jobs: { hybrid: { status: 'failed', progress: 0, message: 'worker crashed' } } });
    expect(planConvergence({ id: 'p1', activeEngine: null, jobs: [job('hybrid', 'failed', 0, 'worker crashed')] }, alreadyShown).failed).toEqual([]);
  });

  it('does nothing for a project that is not the open one', () => {
    expect(planConvergence({ id: 'other', activeEngine: 'fast', jobs: [job('fast', 'processing')] }, local())).toEqual({
      loadStems: false,
      loadPartial: null,
      analysed: null,
      running: [],
      finished: [],
      failed: [],
    });
  });
});
