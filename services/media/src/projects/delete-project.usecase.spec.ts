import type { StemStore } from '../stems/stem.ports';
import { projectDocument } from '../testing/in-memory-project-store';
import { InMemoryStemStorage } from '../testing/in-memory-stem-storage';
import { RecordingEvents } from '../testing/recording-publishers';
import { DeleteProjectUseCase } from './delete-project.usecase';
import type { ProjectJobs, ProjectStorage, ProjectStore } from './project.ports';

const OWNER = 'owner-1';
const PROJECT = 'project-1';

/** Fakes that record every change in one list, so the order of the deletion's steps shows. */
function setUp(options: { exists: boolean }) {
  const calls: string[] = [];
  const projects: Pick<ProjectStore, 'findOwned' | 'deleteOwned'> = {
    findOwned: async (ownerId, projectId) => (options.exists && ownerId === OWNER && projectId === PROJECT ? projectDocument({ _id: PROJECT, ownerId }) : null),
    deleteOwned: async (ownerId, projectId) => void calls.push(`project ${ownerId}/${projectId}`),
  };
  const stems: Pick<StemStore, 'deleteForProject'> = { deleteForProject: async (ownerId, projectId) => void calls.push(`stems ${ownerId}/${projectId}`) };
  const jobs: Pick<ProjectJobs, 'deleteForProject'> = { deleteForProject: async (ownerId, projectId) => void calls.push(`jobs ${ownerId}/${projectId}`) };
  const storage: ProjectStorage = {
    listIncompleteUploads: async (prefix) => [`${prefix}stems/fast/vocals.wav`],
    discard: async (key) => void calls.push(`discard ${key}`),
    removePrefix: async (prefix) => void calls.push(`remove ${prefix}`),
  };
  const events = new RecordingEvents();
  return { calls, events, useCase: new DeleteProjectUseCase(projects, stems, jobs, storage, events) };
}

describe('DeleteProjectUseCase', () => {
  it('removes the project document first, then its stems, jobs and every object under its prefix, and announces it', async () => {
    const { calls, events, useCase } = setUp({ exists: true });
    await expect(useCase.execute(OWNER, PROJECT)).resolves.toEqual({ id: PROJECT });
    const prefix = `users/${OWNER}/projects/${PROJECT}/`;
    expect(calls[0]).toBe(`project ${OWNER}/${PROJECT}`);
    expect(calls).toEqual(
      expect.arrayContaining([`stems ${OWNER}/${PROJECT}`, `jobs ${OWNER}/${PROJECT}`, `discard ${prefix}stems/fast/vocals.wav`, `remove ${prefix}`]),
    );
    expect(calls).toHaveLength(5);
    expect(events.published).toEqual([{ type: 'project_deleted', ownerId: OWNER, projectId: PROJECT }]);
  });

  it("answers 404 for a project that is missing or someone else's, touching nothing", async () => {
    const { calls, events, useCase } = setUp({ exists: false });
    await expect(useCase.execute(OWNER, PROJECT)).rejects.toMatchObject({ status: 404 });
    expect(calls).toEqual([]);
    expect(events.published).toEqual([]);
  });

  it("removes the stems' enhanced versions with the project, and nothing of another project", async () => {
    const objects = new InMemoryStemStorage();
    const prefix = `users/${OWNER}/projects/${PROJECT}/`;
    const kept = `users/${OWNER}/projects/project-2/enhanced/job-9/vocals.flac`;
    for (const key of [`${prefix}stems/fast/vocals.flac`, `${prefix}enhanced/job-1/vocals.flac`, `${prefix}enhanced/job-2/drums.flac`, kept]) {
      await objects.putBuffer(key, Buffer.from('flac'), 'audio/flac');
    }
    const storage: ProjectStorage = { listIncompleteUploads: async () => [], discard: async () => undefined, removePrefix: (p) => objects.removePrefix(p) };
    const projects: Pick<ProjectStore, 'findOwned' | 'deleteOwned'> = { findOwned: async () => projectDocument({ _id: PROJECT, ownerId: OWNER }), deleteOwned: async () => undefined };
    const useCase = new DeleteProjectUseCase(projects, { deleteForProject: async () => undefined }, { deleteForProject: async () => undefined }, storage, new RecordingEvents());

    await useCase.execute(OWNER, PROJECT);

    expect(Object.keys(objects.sizes())).toEqual([kept]);
  });
});
