/**
 * Administration commands behind the CLI (cli.ts), testable without a process:
 *   user create --email E --name N [--password P] [--language L]
 *   user disable --email E | user enable --email E
 *   user reset-password --email E [--password P]   (ends the user's sessions and refresh tokens)
 *   app create --name N --redirect-uri U... [--public] [--scopes "public read"]
 *              [--grants "authorization_code refresh_token"] [--owner EMAIL]
 *   app list | app rotate-secret --client-id C | app delete --client-id C
 *   keys rotate [--delay SECONDS] | keys list
 * Rules: a generated password or client secret is printed once and never stored in clear;
 * unknown commands or missing options are a UsageError listing the usage; every change is
 * audited.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { RevocationList } from '@fleetgraph/auth';
import type { Knex } from '@fleetgraph/db';
import {
  createApplication,
  deleteApplication,
  findApplication,
  GRANT_TYPES_SUPPORTED,
  listApplications,
  rotateClientSecret,
  SCOPES_SUPPORTED,
} from '../data/applications';
import { validateApplicationSettings } from '../data/application-input';
import { audit } from '../data/audit';
import type { RevokedAccessToken } from '../data/access-tokens';
import { revokeTokensOf } from '../data/refresh-tokens';
import { findUserByEmail } from '../data/users';
import type { KeyCipher } from '../key-encryption';
import { listSigningKeys, rotateSigningKey } from '../keys';
import { hashPassword } from '../passwords';

export const USAGE = `usage:
  user create --email E --name N [--password P] [--language L]
  user disable --email E
  user enable --email E
  user reset-password --email E [--password P]
  app create --name N --redirect-uri U [--redirect-uri U2 ...] [--public] [--scopes "public read"] [--grants "authorization_code refresh_token"] [--owner EMAIL]
  app list
  app rotate-secret --client-id C
  app delete --client-id C
  keys rotate [--delay SECONDS]
  keys list`;

export class UsageError extends Error {}

const OPTIONS = {
  email: { type: 'string' },
  name: { type: 'string' },
  password: { type: 'string' },
  language: { type: 'string' },
  'redirect-uri': { type: 'string', multiple: true },
  public: { type: 'boolean' },
  scopes: { type: 'string' },
  grants: { type: 'string' },
  owner: { type: 'string' },
  'client-id': { type: 'string' },
  delay: { type: 'string' },
} as const;

function required<T>(value: T | undefined, option: string): T {
  if (value === undefined || value === '') throw new UsageError(`missing --${option}\n${USAGE}`);
  return value;
}

function words(value: string | undefined, allowed: readonly string[], option: string): string[] | undefined {
  if (value === undefined) return undefined;
  const list = value.split(/[\s,]+/).filter(Boolean);
  const unknown = list.filter((item) => !allowed.includes(item));
  if (unknown.length > 0 || list.length === 0)
    throw new UsageError(`--${option} accepts: ${allowed.join(', ')}`);
  return list;
}

const generatedPassword = () => randomBytes(15).toString('base64url');

async function userByEmail(knex: Knex, email: string) {
  const user = await findUserByEmail(knex, email);
  if (!user) throw new UsageError(`no user with email ${email}`);
  return user;
}

export interface AdminOptions {
  /** Seals a rotated signing key (the CLI passes the one of SSO_KEY_ENCRYPTION_KEY). */
  keyCipher?: KeyCipher;
  /** Where revoked access tokens are published (the CLI passes the Redis list when REDIS_URL is set). */
  revocations?: RevocationList;
}

export async function runAdminCommand(
  knex: Knex,
  argv: string[],
  options: AdminOptions = {},
): Promise<string[]> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  const command = positionals.slice(0, 2).join(' ');
  // Revoked access tokens are recorded in the database (the SSO refuses them) and, when a shared
  // list is given, published for the gateway and subgraphs; without one they stay usable there
  // until they expire (<= 2 h).
  const publish = async (revoked: RevokedAccessToken[]) => {
    if (options.revocations) await Promise.all(revoked.map((t) => options.revocations!.revoke(t.jti, t.exp)));
  };

  switch (command) {
    case 'user create': {
      const email = required(values.email, 'email').trim();
      const password = values.password ?? generatedPassword();
      if (password.length < 10) throw new UsageError('--password must be at least 10 characters');
      const [row] = await knex('sso.users')
        .insert({
          id: knex.raw('gen_random_uuid()'),
          email,
          full_name: required(values.name, 'name'),
          language: values.language ?? 'en',
          password_hash: await hashPassword(password),
        })
        .returning(['id']);
      await audit(knex, 'admin.user', { userId: row.id, detail: { action: 'create' } });
      return [
        `user ${email} created: uid ${row.id}`,
        ...(values.password ? [] : [`password (shown once): ${password}`]),
      ];
    }
    case 'user disable':
    case 'user enable': {
      const user = await userByEmail(knex, required(values.email, 'email'));
      const disabled = command === 'user disable';
      await knex('sso.users').where({ id: user.id }).update({ disabled, updated_at: knex.fn.now() });
      if (disabled) {
        // Signed out everywhere: sessions, refresh tokens, and access tokens (at the gateway too).
        await knex('sso.sessions').where({ user_id: user.id }).delete();
        await publish(await revokeTokensOf(knex, { userId: user.id }));
      }
      await audit(knex, 'admin.user', {
        userId: user.id,
        detail: { action: disabled ? 'disable' : 'enable' },
      });
      return [`user ${user.email} ${disabled ? 'disabled' : 'enabled'}`];
    }
    case 'user reset-password': {
      const user = await userByEmail(knex, required(values.email, 'email'));
      const password = values.password ?? generatedPassword();
      if (password.length < 10) throw new UsageError('--password must be at least 10 characters');
      const revoked = await knex.transaction(async (trx) => {
        await trx('sso.users')
          .where({ id: user.id })
          .update({ password_hash: await hashPassword(password), updated_at: trx.fn.now() });
        await trx('sso.sessions').where({ user_id: user.id }).delete();
        await audit(trx, 'admin.user', { userId: user.id, detail: { action: 'reset-password' } });
        return revokeTokensOf(trx, { userId: user.id });
      });
      await publish(revoked);
      return [
        `password of ${user.email} reset; sessions, refresh and access tokens ended`,
        ...(values.password ? [] : [`password (shown once): ${password}`]),
      ];
    }
    case 'app create': {
      const redirectUris = required(values['redirect-uri'], 'redirect-uri');
      const owner = values.owner ? await userByEmail(knex, values.owner) : undefined;
      const scopes = words(values.scopes, SCOPES_SUPPORTED, 'scopes');
      const grants = words(values.grants, GRANT_TYPES_SUPPORTED, 'grants');
      const { settings, problems } = validateApplicationSettings({
        name: required(values.name, 'name'),
        redirectUris,
        ...(scopes ? { allowedScopes: scopes } : {}),
        ...(grants ? { grantTypes: grants } : {}),
      });
      if (problems.length > 0) throw new UsageError(problems.join('\n'));
      const { application, clientSecret } = await createApplication(knex, {
        ...settings,
        confidential: !values.public,
        ownerUserId: owner?.id ?? null,
      });
      await audit(knex, 'admin.application', {
        clientId: application.clientId,
        detail: { action: 'create' },
      });
      return [
        `application ${application.name} created (${application.confidential ? 'confidential' : 'public'})`,
        `client_id: ${application.clientId}`,
        ...(clientSecret ? [`client_secret (shown once, store it now): ${clientSecret}`] : []),
      ];
    }
    case 'app list': {
      const apps = await listApplications(knex);
      if (apps.length === 0) return ['no applications'];
      return apps.map(
        (app) =>
          `${app.clientId}\t${app.name}\t${app.confidential ? 'confidential' : 'public'}\tscopes=${app.allowedScopes.join(',')}\tgrants=${app.grantTypes.join(',')}\t${app.redirectUris.join(' ')}`,
      );
    }
    case 'app rotate-secret': {
      const clientId = required(values['client-id'], 'client-id');
      const secret = await rotateClientSecret(knex, clientId);
      if (!secret) throw new UsageError(`no confidential application ${clientId}`);
      await audit(knex, 'admin.application', { clientId, detail: { action: 'rotate-secret' } });
      return [
        `client_secret of ${clientId} rotated; the old one no longer works`,
        `client_secret (shown once, store it now): ${secret}`,
      ];
    }
    case 'app delete': {
      const clientId = required(values['client-id'], 'client-id');
      if (!(await findApplication(knex, clientId))) throw new UsageError(`no application ${clientId}`);
      await publish(await revokeTokensOf(knex, { clientId }));
      await deleteApplication(knex, clientId);
      await audit(knex, 'admin.application', { clientId, detail: { action: 'delete' } });
      return [`application ${clientId} deleted; its tokens are revoked`];
    }
    case 'keys rotate': {
      const delaySeconds = values.delay === undefined ? undefined : Number(values.delay);
      if (delaySeconds !== undefined && (!Number.isInteger(delaySeconds) || delaySeconds < 0))
        throw new UsageError('--delay must be a whole number of seconds');
      const { kid, activatesAt } = await rotateSigningKey(knex, {
        ...(delaySeconds === undefined ? {} : { delaySeconds }),
        ...(options.keyCipher ? { cipher: options.keyCipher } : {}),
      });
      await audit(knex, 'admin.keys', { detail: { action: 'rotate', kid } });
      return [
        `key ${kid} published now; signs from ${activatesAt.toISOString()}; the previous key retires then`,
      ];
    }
    case 'keys list': {
      const keys = await listSigningKeys(knex);
      return keys.map(
        (key) =>
          `${key.kid}\tcreated ${key.createdAt.toISOString()}\tactive from ${key.activatedAt?.toISOString() ?? '-'}\tretired ${key.retiredAt?.toISOString() ?? '-'}`,
      );
    }
    default:
      throw new UsageError(USAGE);
  }
}
