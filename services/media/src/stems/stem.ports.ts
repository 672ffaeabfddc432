import type { EngineName, UpdateStemBody } from '@stemdeck/proto';
import type { StemDocument } from './stem.schema';

/** A stem's enhanced version as stored: the enhance job that made it, its object, and when it was attached. */
export type EnhancedStemDocument = NonNullable<StemDocument['enhanced']>;

/*
 * What the stem use-cases (and a project's deletion) need of the stem documents, behind a token bound in
 * stem.providers. The project a stem read checks goes through PROJECT_STORE (project.ports.ts), and the
 * `stem_updated` event through SEPARATION_EVENTS (separation.ports.ts): the same needs, the same ports.
 */

/** The owner's stem documents: every read and change carries the owner id, so another user's stem is absent. */
export interface StemStore {
  findOwned(ownerId: string, stemId: string): Promise<StemDocument | null>;
  /** The owner's stems of one project and engine, in stem-type order. */
  listOwned(ownerId: string, projectId: string, engine: EngineName): Promise<StemDocument[]>;
  /** The stored stem after the change, or null when it is missing or someone else's. */
  updateOwned(ownerId: string, stemId: string, changes: UpdateStemBody): Promise<StemDocument | null>;
  /**
   * Points the stem at a new enhanced version and has the mixer play it; the original object key is left as
   * it is. The stored stem after the change, or null when it is missing, someone else's or of another project.
   */
  setEnhanced(ownerId: string, projectId: string, stemId: string, enhanced: EnhancedStemDocument): Promise<StemDocument | null>;
  /** Every stem document of a project, all engines (the project is being deleted). */
  deleteForProject(ownerId: string, projectId: string): Promise<void>;
}
export const STEM_STORE = Symbol('StemStore');
