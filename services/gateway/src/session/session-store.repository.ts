import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';

/** The collection express-session's store keeps sessions in (documents `{_id, session, expires}`). */
export const SESSIONS_COLLECTION = 'sessions';

/**
 * Every write the session store makes waits for the server's acknowledgement. An unacknowledged
 * write (`w: 0`) is sent without reading its reply; FerretDB answers it anyway, and the stray reply is
 * then read as the answer to the next command on that pooled connection, failing it.
 */
export const ACKNOWLEDGED = { w: 'majority' } as const;

@Injectable()
export class SessionStoreRepository {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  /** Removes every session whose expiry has passed; answers how many went. */
  async deleteExpired(now: Date = new Date()): Promise<number> {
    const result = await this.connection
      .collection(SESSIONS_COLLECTION)
      .deleteMany({ expires: { $lt: now } }, { writeConcern: ACKNOWLEDGED });
    return result.deletedCount;
  }
}
