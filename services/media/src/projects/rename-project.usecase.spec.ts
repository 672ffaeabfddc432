import { InMemoryProjectStore } from '../testing/in-memory-project-store';
import { RenameProjectUseCase } from './rename-project.usecase';

const OWNER = 'owner-1';
const PROJECT = 'project-1';

function setUp() {
  const projects = new InMemoryProjectStore();
  projects.add({
    _id: PROJECT,
    ownerId: OWNER,
    name: 'song',
    originalFile: 'song.wav',
    bpm: 120,
    key: 'C major',
    source: 'audio',
    createdAt: new Date('2025-01-01T00:00:00Z'),
  });
  return { projects, useCase: new RenameProjectUseCase(projects) };
}

describe('RenameProjectUseCase', () => {
  it("stores the owner's new name and answers the renamed project", async () => {
    const { projects, useCase } = setUp();
    await expect(useCase.execute({ ownerId: OWNER, projectId: PROJECT, name: 'New name' })).resolves.toMatchObject({ id: PROJECT, name: 'New name' });
    expect(projects.stored.get(PROJECT)?.name).toBe('New name');
  });

  it("answers 404 for a project that is missing or someone else's, renaming nothing", async () => {
    const { projects, useCase } = setUp();
    await expect(useCase.execute({ ownerId: 'rival', projectId: PROJECT, name: 'Taken' })).rejects.toMatchObject({ status: 404, message: 'Project not found' });
    await expect(useCase.execute({ ownerId: OWNER, projectId: 'missing', name: 'Taken' })).rejects.toMatchObject({ status: 404 });
    expect(projects.stored.get(PROJECT)?.name).toBe('song');
  });
});
