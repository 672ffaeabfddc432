import { JOB_EVENTS_WILDCARD, jobEventOwner, jobEventSubject } from './jobs';
import { MEDIA_EVENTS_WILDCARD, mediaEventOwner, mediaEventSubject, PROJECT_DELETED_EVENTS } from './media';

/** NATS's matching: `*` is one token, `>` the rest (one token or more). */
function subjectMatches(pattern: string, subject: string): boolean {
  const want = pattern.split('.');
  const have = subject.split('.');
  for (let i = 0; i < want.length; i++) {
    if (want[i] === '>') return have.length > i;
    if (i >= have.length || (want[i] !== '*' && want[i] !== have[i])) return false;
  }
  return want.length === have.length;
}

describe('media event subjects', () => {
  it('name the owner and the event type, and give the owner back', () => {
    const subject = mediaEventSubject('user-1@realm', 'stem_updated');
    expect(subject).toBe(`stemdeck.media.events.${Buffer.from('user-1@realm').toString('hex')}.stem_updated`);
    expect(mediaEventOwner(subject)).toBe('user-1@realm');
  });

  it('reach the gateway for every type, and the deletion listeners for deletions alone', () => {
    const deleted = mediaEventSubject('u', 'project_deleted');
    const updated = mediaEventSubject('u', 'stem_updated');
    expect(subjectMatches(MEDIA_EVENTS_WILDCARD, deleted)).toBe(true);
    expect(subjectMatches(MEDIA_EVENTS_WILDCARD, updated)).toBe(true);
    expect(subjectMatches(PROJECT_DELETED_EVENTS, deleted)).toBe(true);
    expect(subjectMatches(PROJECT_DELETED_EVENTS, updated)).toBe(false);
  });

  it('give no owner for a subject of another shape', () => {
    expect(mediaEventOwner('stemdeck.media.events.7573')).toBeNull();
    expect(mediaEventOwner('stemdeck.media.events.zz.stem_updated')).toBeNull();
    expect(mediaEventOwner('stemdeck.jobs.events.75.job_done')).toBeNull();
    expect(mediaEventOwner(`stemdeck.media.events.${Buffer.from('u').toString('hex')}.a.b`)).toBeNull();
  });
});

describe('job event subjects', () => {
  it('name the owner and give the owner back', () => {
    const subject = jobEventSubject('user-1@realm');
    expect(subjectMatches(JOB_EVENTS_WILDCARD, subject)).toBe(true);
    expect(jobEventOwner(subject)).toBe('user-1@realm');
  });

  it('give no owner for a subject of another shape', () => {
    expect(jobEventOwner('stemdeck.jobs.events.zz')).toBeNull();
    expect(jobEventOwner(`${jobEventSubject('u')}.job_done`)).toBeNull();
    expect(jobEventOwner(mediaEventSubject('u', 'stem_updated'))).toBeNull();
  });
});
