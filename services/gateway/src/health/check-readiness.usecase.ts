import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { allChecksOk, CheckFn, NatsRpcClient, ObjectStorageAdapter, runChecks } from '@stemdeck/platform';
import { DependencyCheck, HealthReply, healthSubject, SERVICE_NAMES } from '@stemdeck/proto';
import type { Connection } from 'mongoose';
import { OidcAdapter } from '../auth/oidc.adapter';
import { NatsConnectionProbe } from '../nats/nats.module';

export interface Readiness {
  status: 'ok' | 'unavailable';
  checks: Record<string, DependencyCheck>;
}

/**
 * Two scopes. `studio`: NATS, the database, object storage, the identity provider and every service answer
 * (what an operator or the local stack waits for). `replica`: only this replica's own connections, NATS and
 * the database — the orchestrator's readiness probe, so an outage every replica shares (object storage, the
 * identity provider, a service) does not take all of them out of rotation; they answer those requests with a
 * clear 503 themselves.
 */
export type ReadinessScope = 'studio' | 'replica';

@Injectable()
export class CheckReadinessUseCase {
  constructor(
    private readonly nats: NatsConnectionProbe,
    private readonly rpc: NatsRpcClient,
    private readonly storage: ObjectStorageAdapter,
    private readonly oidc: OidcAdapter,
    @InjectConnection() private readonly database: Connection,
  ) {}

  async execute(scope: ReadinessScope = 'studio'): Promise<Readiness> {
    const checks: Record<string, CheckFn> = {
      nats: () => this.nats.ping(),
      database: () => this.database.db!.admin().ping(),
    };
    if (scope === 'studio') this.addStudioChecks(checks);
    const results = await runChecks(checks, 2500);
    return { status: allChecksOk(results) ? 'ok' : 'unavailable', checks: results };
  }

  private addStudioChecks(checks: Record<string, CheckFn>): void {
    checks.storage = () => this.storage.ping();
    checks.identity = () => this.oidc.ping();
    for (const service of SERVICE_NAMES) {
      checks[`service:${service}`] = async () => {
        const reply = await this.rpc.request(healthSubject(service), {}, HealthReply, 1500);
        const down = Object.entries(reply.checks).filter(([, c]) => c.status !== 'ok');
        if (down.length) throw new Error(`${service} degraded: ${down.map(([name, c]) => `${name} ${c.detail ?? 'down'}`).join(', ')}`);
      };
    }
  }
}
