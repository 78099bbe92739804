/** What `npm start` prints: the addresses, a demo login and commands that work when pasted. */
import { DEMO_EMAIL, DEMO_PASSWORD } from '@fleetgraph/seed';
import type { Platform } from './platform';

export const BANNER_QUERY = '{ account { fullName groups { list { label } } } }';

export function curlCommands(urls: Platform['urls']): string {
  return [
    `TOKEN=$(curl -s -X POST ${urls.sso}/oauth/token -H 'Accept: application/json' \\`,
    `  -d grant_type=password -d username=${DEMO_EMAIL} -d password=${DEMO_PASSWORD} \\`,
    `  | sed -E 's/.*"access_token":"([^"]+)".*/\\1/')`,
    `curl -s ${urls.graphql} -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\`,
    `  -d '{"query":"${BANNER_QUERY}"}'`,
  ].join('\n');
}

export function banner(platform: Pick<Platform, 'urls' | 'embeddedDatabase'>): string {
  const { urls } = platform;
  return [
    '',
    'Fleetgraph is running',
    '',
    `  GraphQL gateway   ${urls.graphql}`,
    `  Explorer          ${urls.explorer}   (GraphiQL: Sign in with the demo login)`,
    `  Single sign-on    ${urls.sso}   (token: POST /oauth/token, profile: GET /api/v1/users/me)`,
    ...Object.entries(urls.subgraphs).map(([name, url]) => `  ${name.padEnd(18)}${url}`),
    `  Database          ${platform.embeddedDatabase ? 'embedded PostgreSQL (data in .data/pg)' : 'DATABASE_URL'}`,
    '',
    `  Demo login        ${DEMO_EMAIL} / ${DEMO_PASSWORD}`,
    '',
    'Get a token and query the graph:',
    '',
    curlCommands(urls),
    '',
    'Ctrl-C stops everything; data is kept for the next start.',
    '',
  ].join('\n');
}
