import { z } from 'zod';
import { replyOf, SpotifyFeatures, StemType } from './media';
import {
  AUDIO_EXPORT_FORMATS,
  EXPORT_MASTERINGS,
  EXPORT_STATUSES,
  EXPORT_TYPES,
  PROJECT_EXPORT_FORMATS,
  SHARE_LINK_MAX_DAYS,
  SHARE_LINK_STATUSES,
} from './vocabulary';

/**
 * The export service's contracts: audio and project-data exports (built off a durable queue, stored in
 * object storage, downloaded through the gateway by their owner until they expire) and share links.
 */
export const EXPORT_SUBJECTS = {
  createAudioExport: 'stemdeck.export.audio.create',
  createProjectExport: 'stemdeck.export.project.create',
  getExport: 'stemdeck.export.get',
  exportDownload: 'stemdeck.export.download',
  exportOptions: 'stemdeck.export.options',
  runningExports: 'stemdeck.export.running',
  createShareLink: 'stemdeck.export.share.create',
  listShareLinks: 'stemdeck.export.share.list',
  revokeShareLink: 'stemdeck.export.share.revoke',
  resolveShareLink: 'stemdeck.export.share.resolve',
} as const;

/** JetStream work queue for exports (durable; acknowledged after the file is stored). */
export const EXPORT_STREAM = 'STEMDECK_EXPORT';
export const EXPORT_WORK_SUBJECT = 'stemdeck.export.work';
export const EXPORT_CONSUMER = 'export-worker';

export const ExportType = z.enum(EXPORT_TYPES);
export type ExportType = z.infer<typeof ExportType>;
export const AudioExportFormat = z.enum(AUDIO_EXPORT_FORMATS);
export type AudioExportFormat = z.infer<typeof AudioExportFormat>;
export const ExportMastering = z.enum(EXPORT_MASTERINGS);
export type ExportMastering = z.infer<typeof ExportMastering>;
export const ProjectExportFormat = z.enum(PROJECT_EXPORT_FORMATS);
export type ProjectExportFormat = z.infer<typeof ProjectExportFormat>;
export const ExportStatus = z.enum(EXPORT_STATUSES);
export type ExportStatus = z.infer<typeof ExportStatus>;
export const ShareLinkStatus = z.enum(SHARE_LINK_STATUSES);
export type ShareLinkStatus = z.infer<typeof ShareLinkStatus>;

const owned = { ownerId: z.string().min(1) };
const projectId = z.string({ required_error: 'Required', invalid_type_error: 'Must be text' }).min(1, 'Required').max(200);

/** POST /api/export/audio. `stems` (stem ids) is what `selected` exports; the other types ignore it. */
export const AudioExportBody = z
  .object({
    projectId,
    exportType: ExportType,
    format: AudioExportFormat,
    mastering: ExportMastering.default('raw'),
    stems: z.array(z.string().min(1).max(200)).max(16).default([]),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.exportType === 'selected' && body.stems.length === 0) ctx.addIssue({ code: 'custom', path: ['stems'], message: 'Choose at least one stem' });
  });
export type AudioExportBody = z.infer<typeof AudioExportBody>;
export const AudioExportRequest = z.object({ ...owned, body: AudioExportBody });
export type AudioExportRequest = z.infer<typeof AudioExportRequest>;

/** POST /api/export/project. */
export const ProjectExportBody = z
  .object({
    projectId,
    formats: z
      .array(ProjectExportFormat)
      .min(1, 'Choose at least one format')
      .transform((formats) => [...new Set(formats)]),
  })
  .strict();
export type ProjectExportBody = z.infer<typeof ProjectExportBody>;
export const ProjectExportRequest = z.object({ ...owned, body: ProjectExportBody });
export type ProjectExportRequest = z.infer<typeof ProjectExportRequest>;

/** An export as the export service stores and sends it; the gateway adds the download url (`ExportAnswer`). */
export const ExportRecord = z.object({
  id: z.string(),
  projectId: z.string(),
  kind: z.enum(['audio', 'project']),
  status: ExportStatus,
  /** 0–100. */
  progress: z.number().min(0).max(100),
  /** The name the download is saved as (`<song> - full mix.wav`, `<song> - stems.zip`, …). */
  filename: z.string(),
  error: z.string().optional(),
  /**
   * With `error`: the HTTP status its words go with when it was refused while being built (409: the song was
   * not analysed yet, …); absent for a failure (500).
   */
  errorStatus: z.number().int().optional(),
  /**
   * A processing export still waiting for one of its owner's export slots (each user has a few built at once;
   * the rest wait, oldest first): its place in that user's line, 1 = next. Absent once it is being built.
   */
  queuePosition: z.number().int().positive().optional(),
  createdAt: z.string(),
  /** After this the download is gone (its object removed). */
  expiresAt: z.string(),
});
export type ExportRecord = z.infer<typeof ExportRecord>;
export const ExportReply = replyOf(ExportRecord);
/** GET /api/projects/:id/exports: the owner's exports of the project still being built or waiting their turn, oldest first. */
export const RunningExportsRequest = z.object({ ...owned, projectId: z.string() });
export const ExportListReply = replyOf(z.array(ExportRecord));

/** What POST /api/export/* answers once the file is stored: the seed's filename and downloadUrl. */
export const ExportAnswer = z.object({ id: z.string(), filename: z.string(), downloadUrl: z.string(), expiresAt: z.string() });
export type ExportAnswer = z.infer<typeof ExportAnswer>;

export const ExportRequest = z.object({ ...owned, exportId: z.string() });
export type ExportRequest = z.infer<typeof ExportRequest>;

/** The durable message on EXPORT_WORK_SUBJECT. */
export const ExportWorkMessage = z.object({ exportId: z.string(), ownerId: z.string() });
export type ExportWorkMessage = z.infer<typeof ExportWorkMessage>;

/** Whether a variant can be exported now, and if not, what to run first (words for users). */
export const VariantAvailability = z.object({ available: z.boolean(), reason: z.string().nullable() });
export type VariantAvailability = z.infer<typeof VariantAvailability>;

/** GET /api/projects/:id/export-options: which variants exist for this project's stems and mix. */
export const ExportOptions = z.object({
  projectId: z.string(),
  variants: z.object({ raw: VariantAvailability, landr: VariantAvailability, dolby: VariantAvailability, both: VariantAvailability }),
  /** The ids of stems that have an enhanced version (what dolby exports of stems take). */
  enhancedStemIds: z.array(z.string()),
  /** The stems the latest completed per-stem master covers (what landr exports of stems take). */
  masteredStemTypes: z.array(StemType),
});
export type ExportOptions = z.infer<typeof ExportOptions>;
export const ExportOptionsRequest = z.object({ ...owned, projectId: z.string() });
export const ExportOptionsReply = replyOf(ExportOptions);

/** A share link as its owner sees it (the token itself is only shown once, when it is created). */
export const ShareLinkRecord = z.object({
  id: z.string(),
  projectId: z.string(),
  status: ShareLinkStatus,
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ShareLinkRecord = z.infer<typeof ShareLinkRecord>;

/** POST /api/projects/:id/share-links: an optional expiry in whole days (none: until revoked). */
export const CreateShareLinkBody = z
  .object({
    expiresInDays: z
      .number({ invalid_type_error: 'Must be a number of days' })
      .int('Must be a whole number of days')
      .min(1, `Must be 1 to ${SHARE_LINK_MAX_DAYS} days`)
      .max(SHARE_LINK_MAX_DAYS, `Must be 1 to ${SHARE_LINK_MAX_DAYS} days`)
      .nullable()
      .default(null),
  })
  .strict();
export type CreateShareLinkBody = z.infer<typeof CreateShareLinkBody>;
export const CreateShareLinkRequest = z.object({ ...owned, projectId: z.string(), body: CreateShareLinkBody });
export type CreateShareLinkRequest = z.infer<typeof CreateShareLinkRequest>;
/** The new link with its token (the service keeps only its hash). */
export const CreatedShareLink = ShareLinkRecord.extend({ token: z.string() });
export type CreatedShareLink = z.infer<typeof CreatedShareLink>;
export const CreatedShareLinkReply = replyOf(CreatedShareLink);

export const ListShareLinksRequest = z.object({ ...owned, projectId: z.string() });
export const ShareLinkListReply = replyOf(z.array(ShareLinkRecord));
export const RevokeShareLinkRequest = z.object({ ...owned, linkId: z.string() });
export const ShareLinkReply = replyOf(ShareLinkRecord);

/** Who shared what: a token resolves to its project's owner and id while active; 410 when revoked or expired, 404 unknown. */
export const ResolveShareLinkRequest = z.object({ token: z.string().min(1).max(200) });
export const ResolvedShareLink = z.object({
  ownerId: z.string(),
  projectId: z.string(),
  linkId: z.string(),
  /** When the link stops working (what the public view shows); null: until revoked. */
  expiresAt: z.string().nullable(),
});
export type ResolvedShareLink = z.infer<typeof ResolvedShareLink>;
export const ResolvedShareLinkReply = replyOf(ResolvedShareLink);

/** GET /api/share/:token — the public, read-only view of a shared project (no owner ids, no object keys). */
export const SharedProject = z.object({
  name: z.string(),
  duration: z.number(),
  bpm: z.number().nullable(),
  key: z.string().nullable(),
  analysis: z.object({ spotifyFeatures: SpotifyFeatures, loudnessLufs: z.number() }).nullable(),
  stems: z.array(z.object({ id: z.string(), type: StemType, volume: z.number(), muted: z.boolean(), soloed: z.boolean(), url: z.string() })),
  expiresAt: z.string().nullable(),
});
export type SharedProject = z.infer<typeof SharedProject>;

/** The words a link that no longer works shows (revoked, expired or never issued). */
export const SHARE_LINK_GONE_MESSAGE = 'This link is no longer available';
