import type { ProjectDocument } from './project.schema';
import { RenameProjectUseCase } from './rename-project.usecase';

const OWNER = 'owner-1';
const PROJECT = 'project-1';

function setUp() {
  const stored: ProjectDocument = {
    _id: PROJECT,
    ownerId: OWNER,
    name: 'song',
    originalFile: 'song.wav',
    duration: 30,
    bpm: 120,
    key: 'C major',
    source: 'audio',
    originalKey: null,
    audioKey: null,
    audioContentType: null,
    analysis: null,
    activeEngine: null,
    createdAt: new Date('2025-01-01T00:00:00Z'),
  };
  const projects = {
    renameOwned: async (ownerId: string, projectId: string, name: string) => {
      if (ownerId !== OWNER || projectId !== PROJECT) return null;
      stored.name = name;
      return { ...stored };
    },
  };
  return { stored, useCase: new RenameProjectUseCase(projects) };
}

describe('RenameProjectUseCase', () => {
  it("stores the owner's new name and answers the renamed project", async () => {
    const { stored, useCase } = setUp();
    await expect(useCase.execute({ ownerId: OWNER, projectId: PROJECT, name: 'New name' })).resolves.toMatchObject({ id: PROJECT, name: 'New name' });
    expect(stored.name).toBe('New name');
  });

  it("answers 404 for a project that is missing or someone else's, renaming nothing", async () => {
    const { stored, useCase } = setUp();
    await expect(useCase.execute({ ownerId: 'rival', projectId: PROJECT, name: 'Taken' })).rejects.toMatchObject({ status: 404, message: 'Project not found' });
    await expect(useCase.execute({ ownerId: OWNER, projectId: 'missing', name: 'Taken' })).rejects.toMatchObject({ status: 404 });
    expect(stored.name).toBe('song');
  });
});
