/**
 * The gateway proves itself to the subgraphs with a shared secret (SUBGRAPH_SHARED_SECRET) in
 * one header, so a subgraph's port answers only the gateway, whose limits and rate limit then
 * cannot be sidestepped. Compared in constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

export const GATEWAY_SECRET_HEADER = 'x-fleetgraph-gateway';

/**
 * The caller's tenant (its organization) as the gateway learnt it, sent with every subgraph call:
 * a subgraph under load serves the tenants with nothing in flight first. It orders work only; no
 * access is decided by it.
 */
export const TENANT_HEADER = 'x-fleetgraph-tenant';

export function isGatewaySecret(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
