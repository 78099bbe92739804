/**
 * sso.applications: registered OAuth clients.
 * - client_id is random (`fg_` + 128 bits), client_secret random 256 bits, shown once; only its
 *   SHA-256 is stored (a high-entropy random secret needs no slow hash) and it is compared in
 *   constant time;
 * - public applications (native, single-page) have no secret: they authenticate with `none` and
 *   must use PKCE;
 * - explicit columns, rows mapped to the Application model.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Knex } from '@fleetgraph/db';

/** The scopes of the catalog (libs/auth scopes.ts), which the graph enforces. */
export const SCOPES_SUPPORTED = ['public', 'read', 'write', 'profile'] as const;
export const GRANT_TYPES_SUPPORTED = ['authorization_code', 'refresh_token', 'password'] as const;
export type GrantType = (typeof GRANT_TYPES_SUPPORTED)[number];

export interface Application {
  clientId: string;
  name: string;
  redirectUris: string[];
  confidential: boolean;
  allowedScopes: string[];
  grantTypes: string[];
  ownerUserId: string | null;
  createdAt: Date;
}

export interface ApplicationWithSecret extends Application {
  clientSecretHash: string | null;
}

const COLUMNS = [
  'client_id',
  'name',
  'redirect_uris',
  'confidential',
  'allowed_scopes',
  'grant_types',
  'owner_user_id',
  'created_at',
] as const;

function toApplication(row: Record<string, unknown>): Application {
  return {
    clientId: row.client_id as string,
    name: row.name as string,
    redirectUris: row.redirect_uris as string[],
    confidential: row.confidential as boolean,
    allowedScopes: row.allowed_scopes as string[],
    grantTypes: row.grant_types as string[],
    ownerUserId: (row.owner_user_id as string | null) ?? null,
    createdAt: row.created_at as Date,
  };
}

export function hashClientSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented secret with a stored hash (both hashed to 32 bytes). */
export function clientSecretMatches(storedHash: string | null, presented: string): boolean {
  const expected = Buffer.from(
    storedHash ?? hashClientSecret(`no-secret-${randomBytes(8).toString('hex')}`),
    'hex',
  );
  const actual = Buffer.from(hashClientSecret(presented), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual) && storedHash !== null;
}

export interface NewApplication {
  name: string;
  redirectUris: string[];
  confidential: boolean;
  allowedScopes?: string[];
  grantTypes?: string[];
  ownerUserId?: string | null;
}

export async function createApplication(
  db: Knex,
  input: NewApplication,
): Promise<{ application: Application; clientSecret: string | null }> {
  const clientId = `fg_${randomBytes(16).toString('base64url')}`;
  const clientSecret = input.confidential ? randomBytes(32).toString('base64url') : null;
  const [row] = await db('sso.applications')
    .insert({
      client_id: clientId,
      client_secret_hash: clientSecret ? hashClientSecret(clientSecret) : null,
      name: input.name,
      redirect_uris: input.redirectUris,
      confidential: input.confidential,
      allowed_scopes: input.allowedScopes ?? ['public'],
      grant_types: input.grantTypes ?? ['authorization_code', 'refresh_token'],
      owner_user_id: input.ownerUserId ?? null,
    })
    .returning([...COLUMNS]);
  return { application: toApplication(row), clientSecret };
}

export async function findApplication(
  db: Knex | Knex.Transaction,
  clientId: string,
): Promise<ApplicationWithSecret | undefined> {
  const row = await db('sso.applications')
    .select(...COLUMNS, 'client_secret_hash')
    .where({ client_id: clientId })
    .first();
  return row
    ? { ...toApplication(row), clientSecretHash: row.client_secret_hash as string | null }
    : undefined;
}

export async function listApplications(db: Knex, ownerUserId?: string): Promise<Application[]> {
  const query = db('sso.applications')
    .select(...COLUMNS)
    .orderBy('created_at');
  if (ownerUserId) query.where({ owner_user_id: ownerUserId });
  return (await query).map(toApplication);
}

/** A new secret for a confidential application; the old one stops working at once. */
export async function rotateClientSecret(db: Knex, clientId: string): Promise<string | undefined> {
  const secret = randomBytes(32).toString('base64url');
  const updated = await db('sso.applications')
    .where({ client_id: clientId, confidential: true })
    .update({ client_secret_hash: hashClientSecret(secret), updated_at: db.fn.now() });
  return updated > 0 ? secret : undefined;
}

export async function deleteApplication(db: Knex, clientId: string): Promise<boolean> {
  return (await db('sso.applications').where({ client_id: clientId }).delete()) > 0;
}

/** Changes the settings of an application (its type and secret stay as they are). */
export async function updateApplication(
  db: Knex,
  clientId: string,
  settings: { name: string; redirectUris: string[]; allowedScopes: string[]; grantTypes: string[] },
): Promise<boolean> {
  const updated = await db('sso.applications').where({ client_id: clientId }).update({
    name: settings.name,
    redirect_uris: settings.redirectUris,
    allowed_scopes: settings.allowedScopes,
    grant_types: settings.grantTypes,
    updated_at: db.fn.now(),
  });
  return updated > 0;
}

/**
 * Creates or updates an application whose client id and secret are chosen by the caller (the
 * one-process start registers the explorer this way with credentials kept in its data folder):
 * the settings and the secret are set to the given ones, so repeated starts converge.
 */
export async function ensureApplication(
  db: Knex,
  input: NewApplication & { clientId: string; clientSecret: string | null },
): Promise<Application> {
  const settings = {
    client_secret_hash: input.clientSecret ? hashClientSecret(input.clientSecret) : null,
    name: input.name,
    redirect_uris: input.redirectUris,
    confidential: input.confidential,
    allowed_scopes: input.allowedScopes ?? ['public'],
    grant_types: input.grantTypes ?? ['authorization_code', 'refresh_token'],
    owner_user_id: input.ownerUserId ?? null,
  };
  const [row] = await db('sso.applications')
    .insert({ client_id: input.clientId, ...settings })
    .onConflict('client_id')
    .merge({ ...settings, updated_at: db.fn.now() })
    .returning([...COLUMNS]);
  return toApplication(row);
}
