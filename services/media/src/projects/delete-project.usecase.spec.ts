import type { MediaEvent } from '@stemdeck/proto';
import { DeleteProjectUseCase } from './delete-project.usecase';
import type { ProjectDocument } from './project.schema';

const OWNER = 'owner-1';
const PROJECT = 'project-1';

function setUp(options: { exists: boolean }) {
  const calls: string[] = [];
  const events: MediaEvent[] = [];
  const projects = {
    findOwned: async (ownerId: string, projectId: string) =>
      options.exists && ownerId === OWNER && projectId === PROJECT ? ({ _id: PROJECT, ownerId } as ProjectDocument) : null,
    deleteOwned: async (ownerId: string, projectId: string) => void calls.push(`project ${ownerId}/${projectId}`),
  };
  const stems = { deleteForProject: async (ownerId: string, projectId: string) => void calls.push(`stems ${ownerId}/${projectId}`) };
  const jobs = { deleteForProject: async (ownerId: string, projectId: string) => void calls.push(`jobs ${ownerId}/${projectId}`) };
  const storage = {
    listIncompleteUploads: async (prefix: string) => [`${prefix}stems/fast/vocals.wav`],
    discard: async (key: string) => void calls.push(`discard ${key}`),
    removePrefix: async (prefix: string) => void calls.push(`remove ${prefix}`),
  };
  const publisher = { publish: (event: MediaEvent) => void events.push(event) };
  return { calls, events, useCase: new DeleteProjectUseCase(projects, stems, jobs, storage, publisher) };
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
    expect(events).toEqual([{ type: 'project_deleted', ownerId: OWNER, projectId: PROJECT }]);
  });

  it("answers 404 for a project that is missing or someone else's, touching nothing", async () => {
    const { calls, events, useCase } = setUp({ exists: false });
    await expect(useCase.execute(OWNER, PROJECT)).rejects.toMatchObject({ status: 404 });
    expect(calls).toEqual([]);
    expect(events).toEqual([]);
  });
});
