import { FakeClock, SequentialIds } from '../testing/fake-clock';
import { InMemoryProjectStore } from '../testing/in-memory-project-store';
import { CreateProjectUseCase } from './create-project.usecase';

const OWNER = 'owner-1';
const NOW = Date.parse('2025-03-04T05:06:07.000Z');

function setUp() {
  const projects = new InMemoryProjectStore();
  const clock = new FakeClock(NOW);
  const useCase = new CreateProjectUseCase(projects, clock, new SequentialIds('project'));
  return { projects, clock, useCase };
}

describe('CreateProjectUseCase', () => {
  it("stores a manual project under a new id, created now, and answers it", async () => {
    const { projects, useCase } = setUp();
    const project = await useCase.execute(OWNER, { name: 'Sketch', originalFile: 'sketch.wav', duration: 12.5 });
    expect(project).toEqual({
      id: 'project-1',
      name: 'Sketch',
      originalFile: 'sketch.wav',
      duration: 12.5,
      bpm: null,
      key: null,
      source: 'manual',
      activeEngine: null,
      createdAt: '2025-03-04T05:06:07.000Z',
    });
    expect(projects.stored.get('project-1')).toEqual({
      _id: 'project-1',
      ownerId: OWNER,
      name: 'Sketch',
      originalFile: 'sketch.wav',
      duration: 12.5,
      bpm: null,
      key: null,
      source: 'manual',
      originalKey: null,
      audioKey: null,
      audioContentType: null,
      analysis: null,
      activeEngine: null,
      createdAt: new Date(NOW),
    });
  });

  it('keeps the tempo and key it is given, and gives each project its own id and creation time', async () => {
    const { projects, clock, useCase } = setUp();
    await useCase.execute(OWNER, { name: 'First', originalFile: 'first.wav', duration: 1 });
    clock.advance(60_000);
    const second = await useCase.execute(OWNER, { name: 'Second', originalFile: 'second.wav', duration: 2, bpm: 128, key: 'A minor' });
    expect(second).toMatchObject({ id: 'project-2', bpm: 128, key: 'A minor', createdAt: '2025-03-04T05:07:07.000Z' });
    expect((await projects.listOwned(OWNER)).map((p) => p._id)).toEqual(['project-2', 'project-1']);
  });
});
