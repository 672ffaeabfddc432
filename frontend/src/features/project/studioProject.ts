import type { LiveServerMessage, StemUpdatedMessage } from '@stemdeck/proto/live';
import type { EngineName, Project, SeparationJob } from '../../api/mediaTypes';
import type { AppDispatch, RootState } from '../../app/store';
import { PlayerError, type StemPlayer } from '../../audio/stemPlayer';
import { MARKS } from '../../lib/marks';
import { toaster } from '../../ui/toaster';
import type { LiveChannel } from '../live/useLiveConnection';
import { api } from '../../api/api';
import { fileLoaded, playerSynced } from '../transport/transportSlice';
import { planConvergence } from './converge';
import {
  jobFailed,
  jobFinished,
  jobProgressed,
  projectAnalysed,
  projectClosed,
  projectOpened,
  projectRenamed,
  RESET_MIX,
  stemChanged,
  stemsDecoded,
  stemVersionChanged,
  stemsLoaded,
  type StemChanges,
} from './projectSlice';
import { projectsApi } from './projectsApi';
import { normalizeStems, type MixerStem } from './stems';

const POSITION_REPORT_MS = 50;
/** While a separation runs and no live event has come for this long, the server's state is fetched instead. */
export const QUIET_POLL_MS = 3000;
const POLL_TICK_MS = 1000;

/** The separation and project events the studio follows (validated by the live connection). */
type LiveEvent = Extract<LiveServerMessage, { type: 'stems_queued' | 'stems_progress' | 'stems_partial' | 'stems_ready' | 'stems_failed' | 'project_deleted' | 'project_analysed' }>;

const OPEN_PROJECT_KEY = 'stemdeck.openProject';

function readOpenProjectId(): string | null {
  try {
    return localStorage.getItem(OPEN_PROJECT_KEY);
  } catch {
    return null;
  }
}

function rememberOpenProject(id: string | null): void {
  try {
    if (id) localStorage.setItem(OPEN_PROJECT_KEY, id);
    else localStorage.removeItem(OPEN_PROJECT_KEY);
  } catch {
    // storage disabled: a reload simply starts empty
  }
}


/**
 * The loaded project, glued together: REST for the project and its stems, the live connection for
 * separation progress, progressive/whole stems and other tabs' mixer changes, the stem player for sound,
 * Redux for what screens show. A mixer change applies to the audio at once and is saved at once; the
 * server then tells this user's other tabs (`stem_updated`). One save per stem is on its way at a time;
 * changes made meanwhile are merged and sent when it is answered, so the last change wins.
 */
export class StudioProjectController {
  /** Per stem with a save on its way: the changes made since it left, sent when it is answered. */
  private readonly saves = new Map<string, { next: StemChanges | null }>();
  private lastReport = 0;
  private readonly unsubscribe: Array<() => void> = [];
  /** When the last live event (or server read) about the open project came: polling starts after a quiet spell. */
  private lastHeard = 0;
  private converging: Promise<void> | null = null;
  /** A reprocess request in flight: its job state is not settled on the server yet, so no convergence meanwhile. */
  private requesting = 0;
  /** Version switches run one after another (the last one made wins). */
  private versionSwitches: Promise<void> = Promise.resolve();
  /** Per stem, how many version switches were made here: a server read that began before one must not undo it. */
  private readonly switchGenerations = new Map<string, number>();
  /** Per stem, version switches made here and not answered yet. */
  private readonly switchesInFlight = new Map<string, number>();

  constructor(
    private readonly dispatch: AppDispatch,
    private readonly getState: () => RootState,
    private readonly player: StemPlayer,
    private readonly live: LiveChannel | null,
  ) {}

  /** Subscribes to the player and the live connection; `dispose` undoes it (React may do both twice). */
  start(): void {
    if (this.unsubscribe.length) return;
    this.unsubscribe.push(
      this.player.onPosition((position, status) => {
        const now = performance.now();
        if (status === 'playing' && now - this.lastReport < POSITION_REPORT_MS) return;
        this.lastReport = now;
        this.dispatch(playerSynced({ position, status }));
      }),
    );
    const poll = setInterval(() => this.pollIfQuiet(), POLL_TICK_MS);
    this.unsubscribe.push(() => clearInterval(poll));
    if (this.live) {
      this.unsubscribe.push(
        this.live.subscribe((message) => {
          switch (message.type) {
            case 'welcome':
              // Reconnected (or connected): events may have been missed meanwhile, a stem's version switch too.
              return void this.converge().then(() => this.syncVersions());
            case 'stem_updated':
              return this.applyRemoteChange(message);
            case 'stems_queued':
            case 'stems_progress':
            case 'stems_partial':
            case 'stems_ready':
            case 'stems_failed':
            case 'project_deleted':
            case 'project_analysed':
              return this.onLive(message);
          }
        }),
      );
    }
  }

  /** Saves on their way finish (and send what was merged behind them) after this. */
  dispose(): void {
    for (const off of this.unsubscribe.splice(0)) off();
  }

  /** On entering the studio: the project this browser had open (a reload restores it, mix included). */
  async reopen(): Promise<void> {
    const id = readOpenProjectId();
    if (!id || this.getState().project.project) return;
    const project = await this.dispatch(projectsApi.endpoints.getProject.initiate(id, { forceRefetch: true })).unwrap().catch(() => null);
    if (!project) return rememberOpenProject(null);
    if (!this.getState().project.project) await this.open(project);
  }

  /** Opens a project (e.g. the one just uploaded, with its queued job) and loads its stems. */
  async open(project: Project, job: SeparationJob | null = null): Promise<void> {
    this.player.unload();
    this.player.duration = project.duration;
    this.player.bpm = project.bpm ?? 120;
    this.dispatch(projectOpened(project));
    rememberOpenProject(project.id);
    this.dispatch(fileLoaded({ name: project.originalFile, duration: project.duration }));
    if (job && (job.status === 'queued' || job.status === 'processing')) this.dispatch(jobProgressed({ engine: job.engine, progress: job.progress, queuePosition: job.queuePosition }));
    this.lastHeard = performance.now();
    await this.applyServerState(project);
    // The answer that opened it may already be old: events sent before this project was open here (an
    // upload's analysis or first seconds can beat its answer to the browser) are read from the server.
    await this.converge();
  }

  /** Closes the open project (it was deleted): nothing loaded, nothing remembered. */
  close(projectId: string): void {
    if (this.getState().project.project?.id !== projectId) return;
    this.player.unload();
    this.dispatch(projectClosed());
    this.dispatch(fileLoaded(null));
    rememberOpenProject(null);
  }

  /** A new name for the open project (the library renamed it). */
  renamed(projectId: string, name: string): void {
    this.dispatch(projectRenamed({ id: projectId, name }));
  }

  /**
   * Brings the studio to the server's state of the open project: its active stems (when those here are
   * missing, partial or another engine's) and its jobs. Runs after opening, on every (re)connect of the
   * live connection, and while a job runs without events; concurrent calls share one read.
   */
  converge(): Promise<void> {
    this.converging ??= this.readServerState().finally(() => (this.converging = null));
    return this.converging;
  }

  private async readServerState(): Promise<void> {
    const open = this.getState().project.project;
    if (!open) return;
    const fresh = await this.dispatch(projectsApi.endpoints.getProject.initiate(open.id, { forceRefetch: true }))
      .unwrap()
      .catch((error: { status?: unknown }) => (error.status === 404 ? 'gone' : null));
    if (fresh === 'gone') return this.close(open.id);
    if (!fresh || this.requesting) return;
    this.lastHeard = performance.now();
    await this.applyServerState(fresh);
  }

  private async applyServerState(server: Project): Promise<void> {
    const plan = planConvergence(server, this.getState().project);
    for (const job of plan.running) this.dispatch(jobProgressed(job));
    // The active engine's job is finished here once its stems have loaded (loadStoredStems): if that read
    // fails, the job still shows running and the quiet-spell polling tries again.
    for (const engine of plan.finished) if (!(plan.loadStems && engine === server.activeEngine)) this.dispatch(jobFinished({ engine }));
    for (const { engine, message } of plan.failed) {
      this.dispatch(jobFailed({ engine, message }));
      toaster.create({ title: 'Stem separation failed', description: message, type: 'error' });
    }
    if (plan.finished.length || plan.failed.length) this.dispatch(api.util.invalidateTags(['Projects']));
    if (plan.analysed) this.analysed({ id: server.id, ...plan.analysed });
    if (plan.loadStems) await this.loadStoredStems(server.id, server.activeEngine);
    else if (plan.loadPartial) await this.loadFirstSeconds(server.id, plan.loadPartial.engine, plan.loadPartial.seconds);
  }

  /** The recording's tempo, key and exact length, from its analysis: the studio and the player take them. */
  private analysed(analysis: { id: string; bpm: number; key: string; duration: number }): void {
    const open = this.getState().project.project;
    if (open?.id !== analysis.id) return;
    this.dispatch(projectAnalysed(analysis));
    this.player.bpm = analysis.bpm;
    this.player.duration = analysis.duration;
    this.dispatch(fileLoaded({ name: open.originalFile, duration: analysis.duration }));
  }

  /** A running job's first seconds, stored on the server, when nothing is loaded here yet. */
  private async loadFirstSeconds(projectId: string, engine: EngineName, seconds: number): Promise<void> {
    const stems = await this.dispatch(projectsApi.endpoints.projectStems.initiate({ projectId, engine }, { forceRefetch: true })).unwrap().catch(() => []);
    const now = this.getState().project;
    if (now.project?.id !== projectId || now.stems.length || stems.length === 0) return;
    await this.loadStems(projectId, stems, seconds);
  }

  /** A job runs but its events stopped coming (socket down, events missed): ask the server instead. */
  private pollIfQuiet(): void {
    const { project, jobs } = this.getState().project;
    if (!project || !Object.values(jobs).some((job) => job?.status === 'running')) return;
    if (performance.now() - this.lastHeard < QUIET_POLL_MS) return;
    this.lastHeard = performance.now();
    void this.converge();
  }

  /** The project's active stems from the server, unless whole stems of that engine have loaded meanwhile. */
  private async loadStoredStems(projectId: string, engine: EngineName | null): Promise<void> {
    const stems = await this.dispatch(projectsApi.endpoints.projectStems.initiate({ projectId }, { forceRefetch: true })).unwrap().catch(() => []);
    const now = this.getState().project;
    if (now.project?.id !== projectId) return;
    if (now.stems.length && now.partialSeconds === null && now.stems[0]?.engine === engine) {
      if (engine) this.dispatch(jobFinished({ engine }));
      return;
    }
    if (!stems.length) return;
    if (engine) this.dispatch(jobFinished({ engine }));
    await this.loadStems(projectId, stems, null);
  }

  /**
   * A stored mixer change made elsewhere (another tab of this user): only the fields it changed are
   * applied, to the audio and the mixer, so a change of this tab's own still on its way is not undone.
   */
  private applyRemoteChange({ stem, changes }: StemUpdatedMessage): void {
    const here = this.stemById(stem.id);
    if (!here) return;
    const { version, ...mix } = changes;
    if (Object.keys(mix).length) {
      this.dispatch(stemChanged({ id: stem.id, changes: mix }));
      this.player.setMix(this.getState().project.stems);
    }
    // Switched in another tab, or to a new enhanced version by a finished enhancement.
    const newEnhancement = stem.enhanced?.jobId !== here.enhanced?.jobId;
    if (version !== undefined || newEnhancement) this.playVersion(stem, version !== undefined || (newEnhancement && stem.version === 'enhanced'));
  }

  private stemById(id: string): MixerStem | undefined {
    return this.getState().project.stems.find((s) => s.id === id);
  }

  /**
   * Plays the stem's original or its enhanced version. Saved with a PUT, whose answer names that version's
   * url (the socket's acknowledgement carries none); the mixer shows the switch at once and the player swaps
   * that one stem's recording when the answer comes, the others playing on. A refused switch goes back and
   * says why. Switches run one after another, so the last one made wins.
   */
  switchVersion(id: string, version: MixerStem['version']): Promise<void> {
    const before = this.stemById(id);
    if (!before?.enhanced || before.version === version) return this.versionSwitches;
    this.switchGenerations.set(id, (this.switchGenerations.get(id) ?? 0) + 1);
    this.switchesInFlight.set(id, (this.switchesInFlight.get(id) ?? 0) + 1);
    this.dispatch(stemVersionChanged({ id, version, url: before.url, enhanced: before.enhanced }));
    const run = this.versionSwitches
      .then(() => this.saveVersion(before, version))
      .finally(() => this.switchesInFlight.set(id, (this.switchesInFlight.get(id) ?? 1) - 1));
    this.versionSwitches = run.catch(() => undefined);
    return run;
  }

  private async saveVersion(before: MixerStem, version: MixerStem['version']): Promise<void> {
    const { id } = before;
    try {
      const saved = await this.dispatch(projectsApi.endpoints.updateStem.initiate({ id, changes: { version }, connectionId: this.live?.connectionId() ?? null })).unwrap();
      this.playVersion(saved, true);
    } catch (error) {
      // Back to what it was, unless a newer switch has been made meanwhile.
      if (this.stemById(id)?.version === version) this.dispatch(stemVersionChanged({ id, version: before.version, url: before.url, enhanced: before.enhanced }));
      toaster.create({ title: 'Could not switch the stem', description: serverMessage(error) ?? undefined, type: 'error' });
    }
  }

  /** The server's word on a stem's version: the mixer shows it and, when `swap`, the player swaps to its recording. */
  private playVersion(server: Pick<MixerStem, 'id' | 'version' | 'url' | 'enhanced'>, swap: boolean): void {
    const here = this.stemById(server.id);
    if (!here) return;
    this.dispatch(stemVersionChanged({ id: server.id, version: server.version, url: server.url, enhanced: server.enhanced }));
    if (!swap) return;
    const stem = this.stemById(server.id)!;
    this.player.replaceStem(stem).catch(() => {
      toaster.create({ title: 'Failed to load audio', description: `The ${stem.type} stem's ${stem.version} version could not be loaded`, type: 'error' });
    });
  }

  /** After a reconnect: a version switch made meanwhile (another tab, a finished enhancement) is read from the server. */
  private async syncVersions(): Promise<void> {
    const { project, stems, partialSeconds } = this.getState().project;
    if (!project || !stems.length || partialSeconds !== null) return;
    const generations = new Map(this.switchGenerations);
    const server = await this.dispatch(projectsApi.endpoints.projectStems.initiate({ projectId: project.id }, { forceRefetch: true })).unwrap().catch(() => []);
    for (const stem of server) {
      const here = this.stemById(stem.id);
      // Switched here while the read was on its way: this tab's switch is newer than what the read saw.
      if ((this.switchGenerations.get(stem.id) ?? 0) !== (generations.get(stem.id) ?? 0) || (this.switchesInFlight.get(stem.id) ?? 0) > 0) continue;
      if (!here || (here.version === stem.version && here.url === stem.url && here.enhanced?.jobId === stem.enhanced?.jobId)) continue;
      this.playVersion(stem, true);
    }
  }

  changeStem(id: string, changes: StemChanges): void {
    this.dispatch(stemChanged({ id, changes }));
    this.player.setMix(this.getState().project.stems);
    const onItsWay = this.saves.get(id);
    if (onItsWay) onItsWay.next = { ...onItsWay.next, ...changes };
    else this.startSave(id, changes);
  }

  private startSave(id: string, changes: StemChanges): void {
    const entry: { next: StemChanges | null } = { next: null };
    this.saves.set(id, entry);
    void this.save(id, changes).finally(() => {
      this.saves.delete(id);
      if (entry.next) this.startSave(id, entry.next);
    });
  }

  resetMix(): void {
    for (const stem of this.getState().project.stems) this.changeStem(stem.id, RESET_MIX);
  }

  /** Re-separates with another engine; the current stems keep playing until the new ones are ready. */
  async reprocess(engine: EngineName): Promise<void> {
    const project = this.getState().project.project;
    if (!project) return;
    this.dispatch(jobProgressed({ engine, progress: 0 }));
    this.lastHeard = performance.now();
    this.requesting++;
    try {
      const job = await this.dispatch(projectsApi.endpoints.separate.initiate({ projectId: project.id, engine })).unwrap();
      if (job.status === 'failed') this.dispatch(jobFailed({ engine, message: job.error ?? 'Stem separation failed' }));
      else if (job.queuePosition) this.dispatch(jobProgressed({ engine, progress: 0, queuePosition: job.queuePosition }));
    } catch (error) {
      const message = serverMessage(error) ?? 'Stem separation failed';
      this.dispatch(jobFailed({ engine, message }));
      toaster.create({ title: 'Reprocess failed', description: message, type: 'error' });
    } finally {
      this.requesting--;
    }
  }

  /**
   * Settles when the server has answered; a failed save is not retried (the mix here stays as the user set it).
   * Over the open live socket when there is one (the gateway knows the socket, so the change is not echoed
   * to this tab, and no session read is needed), else with a PUT naming this tab's socket if it has one.
   */
  private async save(id: string, changes: StemChanges): Promise<void> {
    const overSocket = this.live?.saveStem(id, changes);
    if (overSocket) return overSocket;
    await this.dispatch(projectsApi.endpoints.updateStem.initiate({ id, changes, connectionId: this.live?.connectionId() ?? null }));
  }

  private onLive(event: LiveEvent): void {
    const project = this.getState().project;
    if (event.type === 'project_deleted') {
      this.dispatch(api.util.invalidateTags(['Projects']));
      return this.close(event.projectId);
    }
    if (event.type === 'stems_ready' || event.type === 'stems_failed' || event.type === 'project_analysed') this.dispatch(api.util.invalidateTags(['Projects']));
    // Another project's events: opening it later reads its state from the server.
    if (event.projectId !== project.project?.id) return;
    this.lastHeard = performance.now();
    switch (event.type) {
      case 'project_analysed':
        this.analysed({ id: event.projectId, bpm: event.bpm, key: event.key, duration: event.duration });
        break;
      case 'stems_queued':
        this.dispatch(jobProgressed({ engine: event.engine, progress: 0, queuePosition: event.position }));
        break;
      case 'stems_progress':
        if (event.progress < 1) this.dispatch(jobProgressed({ engine: event.engine, progress: event.progress }));
        break;
      case 'stems_partial':
        // The first seconds are worth loading only while there is nothing to play yet.
        if (project.stems.length === 0) void this.loadStems(event.projectId, normalizeStems(event.stems), event.seconds);
        break;
      case 'stems_ready':
        this.dispatch(jobFinished({ engine: event.engine }));
        // Already loaded whole from the server (a read that beat the event): nothing new to decode.
        if (project.partialSeconds === null && project.stems.length > 0 && project.stems[0]?.engine === event.engine) break;
        void this.loadStems(event.projectId, normalizeStems(event.stems), null);
        break;
      case 'stems_failed':
        this.dispatch(jobFailed({ engine: event.engine, message: event.message }));
        // The server removed the first seconds it had stored for this engine: so does the studio.
        if (project.partialSeconds !== null && project.stems[0]?.engine === event.engine) {
          this.player.unload();
          this.dispatch(stemsLoaded({ stems: [], partialSeconds: null }));
        }
        toaster.create({ title: 'Stem separation failed', description: event.message, type: 'error' });
        break;
    }
  }

  private async loadStems(projectId: string, stems: MixerStem[], partialSeconds: number | null): Promise<void> {
    this.dispatch(stemsLoaded({ stems, partialSeconds }));
    try {
      const swapped = await this.player.load(this.getState().project.stems, partialSeconds);
      if (!swapped || this.getState().project.project?.id !== projectId) return;
      performance.mark(MARKS.stemsPlayable);
      this.dispatch(stemsDecoded());
    } catch (error) {
      if (error instanceof PlayerError) {
        toaster.create({ title: 'Failed to load audio', description: 'The selected file could not be processed', type: 'error' });
      }
    }
  }
}

/** The server's own words from an API error ({message} in its JSON body), not the status line. */
export function serverMessage(error: unknown): string | null {
  const data = (error as { data?: unknown } | null)?.data;
  const message = data && typeof data === 'object' ? (data as { message?: unknown }).message : undefined;
  if (typeof message === 'string' && message) return message;
  const fallback = (error as { message?: unknown } | null)?.message;
  return typeof fallback === 'string' && fallback ? fallback : null;
}
