/**
 * @module searcher/http/lease
 * Middleware that leases the current snapshot for one request and releases
 * it when the response is done, so an index switch never pulls the index
 * out from under a request in flight.
 */
import type { MiddlewareHandler } from 'hono';
import type { Snapshot, SnapshotProvider } from '../snapshot.js';

export type LeaseEnv = { Variables: { snapshot: Snapshot } };

export function snapshotLease(provider: SnapshotProvider): MiddlewareHandler<LeaseEnv> {
  return async function leaseSnapshot(c, next) {
    const lease = provider.acquire();
    c.set('snapshot', lease.snapshot);
    try {
      await next();
    } finally {
      lease.release();
    }
  };
}
