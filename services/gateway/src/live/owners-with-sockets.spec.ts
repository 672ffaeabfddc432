import { jobEventOwner, jobEventSubject, mediaEventOwner, mediaEventSubject } from '@stemdeck/proto';
import { ownersWithSockets } from './owners-with-sockets';

const hub = { hasSockets: (userId: string) => userId === 'here' };

describe('ownersWithSockets', () => {
  it("reads the media events of owners with a socket on this replica and passes by everyone else's", () => {
    const accepts = ownersWithSockets(hub, mediaEventOwner);
    expect(accepts(mediaEventSubject('here', 'stem_updated'))).toBe(true);
    expect(accepts(mediaEventSubject('elsewhere', 'stem_updated'))).toBe(false);
    expect(accepts(mediaEventSubject('elsewhere', 'project_deleted'))).toBe(false);
  });

  it("reads the job events of owners with a socket on this replica and passes by everyone else's", () => {
    const accepts = ownersWithSockets(hub, jobEventOwner);
    expect(accepts(jobEventSubject('here'))).toBe(true);
    expect(accepts(jobEventSubject('elsewhere'))).toBe(false);
  });

  it('reads a subject it cannot name an owner in (checked and handled as before)', () => {
    expect(ownersWithSockets(hub, mediaEventOwner)('stemdeck.media.events.not-hex.stem_updated')).toBe(true);
    expect(ownersWithSockets(hub, jobEventOwner)('stemdeck.jobs.events.not-hex')).toBe(true);
  });
});
