/**
 * The floor of the SSO benchmark (sso-peers.ts, side `floor`): the least a server could do to
 * answer a durable refresh grant the way Fleetgraph's SSO does. A bare node:http server in its own
 * process that, per POST /oauth/token, does only what the SSO cannot leave out:
 * - reads the form and checks the client's HTTP Basic secret against its stored SHA-256 (read once
 *   at start, as the SSO's client cache keeps it);
 * - rotates the refresh token with the SSO's own batched statement (createRotationBatcher: one
 *   autocommit statement per batch, the compare-and-set, the new refresh and access token rows,
 *   the audit row and the superseded access tokens revoked), committed before the answer;
 * - signs the access token (RS256, 2048-bit key, the SSO's claims) with jose;
 * - publishes the superseded access tokens to the revocation list (Redis when REDIS_URL is set);
 * - answers the token response as JSON, no-store.
 * No Fastify, no logging, no error catalogue, no slow path: a refresh the statement does not
 * rotate is a bare 400. The SSO does all of this and more, so floor / node-oidc-provider is the
 * highest ratio a server with this durable work could print here.
 *
 *   FLOOR_PORT=4904 FLOOR_DATABASE_URL=postgres://... FLOOR_CLIENT_ID=fg_... \
 *   node --import tsx tools/bench/src/sso-floor.ts
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { generateKeyPair, SignJWT } from 'jose';
import { createRevocationList, DEFAULT_REVOCATION_PREFIX } from '@fleetgraph/auth';
import { createKnex } from '@fleetgraph/db';
import {
  clientSecretMatches,
  createRotationBatcher,
  hashRefreshToken,
  newRefreshToken,
} from '@fleetgraph/sso';
import { serveBodies } from './bare-server';

const ACCESS_TTL = 3600;
const REFRESH_TTL = 30 * 24 * 3600;
const port = Number(process.env.FLOOR_PORT ?? 4904);
const issuer = `http://127.0.0.1:${port}`;
const clientId = process.env.FLOOR_CLIENT_ID ?? '';
const knex = createKnex({ url: process.env.FLOOR_DATABASE_URL ?? '', applicationName: 'bench-sso-floor' });
const [application] = await knex('sso.applications')
  .where({ client_id: clientId })
  .select('client_secret_hash');
if (!application) throw new Error(`no application ${clientId}`);
const secretHash = application.client_secret_hash as string;
const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048 });
const kid = randomUUID();
const rotations = createRotationBatcher(knex, { refreshTtlSeconds: REFRESH_TTL });
const revocations = createRevocationList(
  process.env.REDIS_URL
    ? {
        redisUrl: process.env.REDIS_URL,
        keyPrefix: process.env.REVOCATION_PREFIX ?? DEFAULT_REVOCATION_PREFIX,
      }
    : {},
);

function send(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    pragma: 'no-cache',
  });
  response.end(body);
}

function clientAuthenticated(authorization: string | undefined): boolean {
  const decoded = Buffer.from((authorization ?? '').replace(/^Basic /i, ''), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0 || decodeURIComponent(decoded.slice(0, colon)) !== clientId) return false;
  return clientSecretMatches(secretHash, decodeURIComponent(decoded.slice(colon + 1)));
}

async function refresh(request: IncomingMessage, response: ServerResponse, body: Buffer): Promise<void> {
  if (request.url === '/readyz') return send(response, 200, '{}');
  const form = new URLSearchParams(body.toString('utf8'));
  if (!clientAuthenticated(request.headers.authorization))
    return send(response, 401, '{"error":"invalid_client"}');
  const presented = form.get('refresh_token');
  if (form.get('grant_type') !== 'refresh_token' || !presented)
    return send(response, 400, '{"error":"unsupported_grant_type"}');
  const refreshToken = newRefreshToken();
  const iat = Math.floor(Date.now() / 1000);
  const jti = randomUUID();
  const rotation = await rotations.rotate({
    tokenHash: hashRefreshToken(presented),
    clientId,
    newId: randomUUID(),
    newHash: hashRefreshToken(refreshToken),
    jti,
    accessExpiresAt: new Date((iat + ACCESS_TTL) * 1000),
    ip: request.socket.remoteAddress ?? null,
  });
  if (!rotation) return send(response, 400, '{"error":"invalid_grant"}');
  const accessToken = await new SignJWT({
    scope: rotation.scope,
    user: { uid: rotation.userId, email: rotation.email, full_name: rotation.fullName },
    client_id: clientId,
  })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', provider: 'fleetgraph-sso', kid })
    .setIssuer(issuer)
    .setSubject(rotation.userId)
    .setAudience('fleetgraph')
    .setJti(jti)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TTL)
    .sign(privateKey);
  await Promise.all(rotation.superseded.map((token) => revocations.revoke(token.jti, token.exp)));
  send(
    response,
    200,
    JSON.stringify({
      access_token: accessToken,
      token_type: 'bearer',
      expires_in: ACCESS_TTL,
      refresh_token: refreshToken,
      scope: rotation.scope,
      created_at: iat,
    }),
  );
}

serveBodies(port, refresh);
process.once('SIGINT', () => {
  void Promise.all([knex.destroy(), revocations.close()]).finally(() => process.exit(0));
});
