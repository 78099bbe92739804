/**
 * Test kit for the SSO: a throwaway database, the app on it (through inject, no port), and
 * helpers to add users and call the token endpoint.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createKnex, createTestDatabase, type Knex, type TestDatabase } from '@fleetgraph/db';
import { buildApp } from './app';
import { loadSsoConfig, type SsoConfig } from './config';
import { hashPassword } from './passwords';

export const TEST_ISSUER = 'http://sso.test';

export interface SsoHarness {
  app: FastifyInstance;
  knex: Knex;
  database: TestDatabase;
  config: SsoConfig & { databaseUrl: string };
  close(): Promise<void>;
}

export async function startSso(label: string, env: Record<string, string> = {}): Promise<SsoHarness> {
  const database = await createTestDatabase(`sso_${label}`);
  const config = { ...loadSsoConfig({ LOG_LEVEL: 'silent', SSO_ISSUER: TEST_ISSUER, ...env }), databaseUrl: database.url };
  let app: FastifyInstance | undefined;
  const knex = createKnex({ url: database.url });
  try {
    app = await buildApp(config);
  } catch (error) {
    await knex.destroy();
    await database.drop();
    throw error;
  }
  return {
    app,
    knex,
    database,
    config,
    async close() {
      await app.close();
      await knex.destroy();
      await database.drop();
    },
  };
}

export interface TestUserInput {
  email?: string;
  password?: string;
  fullName?: string;
  language?: string;
  disabled?: boolean;
}

export async function insertUser(knex: Knex, input: TestUserInput = {}) {
  const user = {
    id: randomUUID(),
    email: input.email ?? `user-${randomUUID().slice(0, 8)}@example.test`,
    password: input.password ?? 'correct horse battery staple',
    fullName: input.fullName ?? 'Test User',
    language: input.language ?? 'en',
    disabled: input.disabled ?? false,
  };
  await knex('sso.users').insert({
    id: user.id,
    email: user.email,
    password_hash: await hashPassword(user.password),
    full_name: user.fullName,
    language: user.language,
    disabled: user.disabled,
  });
  return user;
}

/** POST /oauth/token as a form (the default) or as JSON. */
export function postToken(
  app: FastifyInstance,
  params: Record<string, string>,
  options: { json?: boolean; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: {
      accept: 'application/json',
      'content-type': options.json ? 'application/json' : 'application/x-www-form-urlencoded',
      ...options.headers,
    },
    payload: options.json ? JSON.stringify(params) : new URLSearchParams(params).toString(),
  });
}

export function decodePart(token: string, index: 0 | 1): Record<string, any> {
  return JSON.parse(Buffer.from(token.split('.')[index]!, 'base64url').toString('utf8'));
}
