import type { JobSlotsPort } from '../jobs/job-slots';

/** The part of the job slots that cancel and delete use: keeps which owners' lines were announced. */
export class RecordingLineAnnouncements implements Pick<JobSlotsPort, 'announcePlaces'> {
  readonly announced: string[] = [];

  async announcePlaces(ownerId: string): Promise<void> {
    this.announced.push(ownerId);
  }
}
