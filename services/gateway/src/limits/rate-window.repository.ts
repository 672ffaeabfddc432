import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { randomUUID } from 'node:crypto';
import { Connection, Model, Schema } from 'mongoose';
import type { RateWindowStore } from './request-rate.limiter';

interface RateHitDocument {
  _id: string;
  key: string;
  windowStart: number;
}

const rateHitSchema = new Schema<RateHitDocument>(
  {
    _id: { type: String, required: true },
    key: { type: String, required: true },
    windowStart: { type: Number, required: true },
  },
  { collection: 'rate_hits', versionKey: false },
);
rateHitSchema.index({ key: 1, windowStart: 1 });

/**
 * Request counts per key and window in the database every gateway replica shares: a request is recorded as
 * a document of its own, then the window's documents are counted. A request's count includes itself and
 * every request recorded before it, so the n-th recorded one counts at least n and no more than `limit`
 * requests are ever let through, whatever the concurrency across replicas. (One counter upserted with $inc
 * would be one write, but FerretDB runs it as a read then a write and loses counts under concurrent
 * requests: 50 at once counted 11.) A request refused after recording removes its record, so the window
 * stays open to later requests up to the limit. A window already full is answered from one count without recording, so
 * a flood adds nothing; a key's older windows are removed when this replica first sees its new one.
 */
@Injectable()
export class RateWindowRepository implements RateWindowStore {
  private readonly hits: Model<RateHitDocument>;
  /** The window each key was last cleaned up for on this replica. */
  private readonly cleaned = new Map<string, number>();

  constructor(@InjectConnection() connection: Connection) {
    this.hits = connection.models.RateHit ?? connection.model<RateHitDocument>('RateHit', rateHitSchema);
  }

  async hit(key: string, windowStart: number, limit: number): Promise<number> {
    if ((await this.hits.countDocuments({ key, windowStart })) >= limit) return limit + 1;
    const id = randomUUID();
    await this.hits.create({ _id: id, key, windowStart });
    const count = await this.hits.countDocuments({ key, windowStart });
    // Refused after all (others were recorded at the same moment): its record goes, leaving the slot to a later request.
    if (count > limit) await this.hits.deleteOne({ _id: id });
    if (this.cleaned.get(key) !== windowStart) {
      if (this.cleaned.size > 100_000) this.cleaned.clear();
      this.cleaned.set(key, windowStart);
      await this.hits.deleteMany({ key, windowStart: { $lt: windowStart } });
    }
    return count;
  }
}
