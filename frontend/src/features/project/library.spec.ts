import type { SeparationJob } from '../../api/mediaTypes';
import { checkProjectName, ordinal, stemStatusOf } from './library';

const job = (status: SeparationJob['status'], progress = 0): SeparationJob => ({ id: 'j', projectId: 'p', engine: 'fast', status, progress, error: null });

describe('project library', () => {
  it('says what state the stems are in', () => {
    expect(stemStatusOf({ activeEngine: null, source: 'audio', jobs: [job('processing', 0.42)] })).toEqual({ label: 'Separating 42% (fast)', tone: 'busy' });
    expect(stemStatusOf({ activeEngine: null, source: 'audio', jobs: [job('queued')] }).label).toBe('Waiting to separate (fast)');
    expect(stemStatusOf({ activeEngine: null, source: 'audio', jobs: [{ ...job('queued'), queuePosition: 3 }] })).toEqual({
      label: 'Waiting for your other songs · 3rd in line (fast)',
      tone: 'busy',
    });
    expect(stemStatusOf({ activeEngine: 'fast', source: 'audio', jobs: [job('completed', 1)] })).toEqual({ label: '4 stems · fast engine', tone: 'ready' });
    expect(stemStatusOf({ activeEngine: null, source: 'audio', jobs: [job('failed')] }).tone).toBe('failed');
    expect(stemStatusOf({ activeEngine: null, source: 'manual', jobs: [] }).label).toBe('No audio yet');
  });

  it('says places in line as words do', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111].map(ordinal)).toEqual(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st', '111th']);
  });

  it('checks a new name as the server does: trimmed, 1 to 120 characters', () => {
    expect(checkProjectName('  Night Drive ')).toEqual({ ok: true, name: 'Night Drive' });
    expect(checkProjectName('   ')).toEqual({ ok: false, message: 'The name cannot be empty' });
    expect(checkProjectName('x'.repeat(120)).ok).toBe(true);
    expect(checkProjectName('x'.repeat(121))).toEqual({ ok: false, message: 'The name can be at most 120 characters' });
  });
});
