/**
 * The authorization-code flow across SSO replicas: the explorer's registered client (confidential,
 * PKCE S256) is authorized at sso-1, signed in and approved through its pages as a browser without
 * JavaScript does (form posts, cookies kept), the code is redeemed at sso-2, the token answers
 * through the balanced gateway, and the same code presented again at sso-1 is refused and revokes
 * that token. Each step talks to one replica's own address, so which replica answered is not left
 * to the balancer.
 */
import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { DEMO_EMAIL, DEMO_PASSWORD } from '@fleetgraph/seed';
import { instanceName, SSO_PORT } from '../compose-file';
import { graphql, urls } from '../platform';
import { replicaUrl, type Outcome } from './support';

const NAME = 'authorization-code flow across SSO replicas';
/** The client `npm run containers -- up` registers for the explorer (deploy/containers). */
const CLIENT_ID = 'fleetgraph-explorer';
const REDIRECT_URI = `${urls.gateway}/explorer/callback`;

interface Page {
  status: number;
  location: string | null;
  html: string;
}

/** A cookie-keeping client of one SSO replica's pages; redirects stay on that replica. */
function pageClient(base: string) {
  const cookies = new Map<string, string>();
  return async (target: string, form?: Record<string, string>): Promise<Page> => {
    // A redirect names the issuer (the balanced address): only its path and query are kept.
    const { pathname, search } = new URL(target, base);
    const response = await fetch(`${base}${pathname}${search}`, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        ...(cookies.size ? { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: new URLSearchParams(form) } : {}),
      signal: AbortSignal.timeout(15_000),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    return {
      status: response.status,
      location: response.headers.get('location'),
      html: await response.text(),
    };
  };
}

const formField = (html: string, pattern: RegExp, what: string): string => {
  const match = pattern.exec(html);
  if (!match) throw new Error(`no ${what} in the page: ${html.slice(0, 200)}`);
  return (match[1] as string).replace(/&amp;/g, '&');
};
const csrf = (html: string) => formField(html, /name="csrf_token" value="([^"]+)"/, 'csrf_token');
const action = (html: string) => formField(html, /<form method="post" action="([^"]+)"/, 'form');

/** Authorizes at one replica's pages; the code its redirect carries. */
async function authorize(base: string, challenge: string, state: string): Promise<string> {
  const page = pageClient(base);
  let answer = await page(
    `/oauth/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT_URI,
      scope: 'read',
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    })}`,
  );
  if (answer.html.includes('name="password"')) {
    answer = await page(action(answer.html), {
      csrf_token: csrf(answer.html),
      email: DEMO_EMAIL,
      password: DEMO_PASSWORD,
    });
    if (!answer.location) throw new Error(`sign-in: HTTP ${answer.status} ${answer.html.slice(0, 200)}`);
    answer = await page(answer.location);
  }
  if (answer.html.includes('name="decision"'))
    answer = await page(action(answer.html), { csrf_token: csrf(answer.html), decision: 'approve' });
  const redirect = answer.location ? new URL(answer.location) : undefined;
  const code = redirect?.searchParams.get('code');
  if (!code || redirect?.searchParams.get('state') !== state)
    throw new Error(`no code: HTTP ${answer.status} ${answer.location} ${answer.html.slice(0, 200)}`);
  return code;
}

/** Presents the code at one replica's token endpoint. */
async function redeem(base: string, code: string, verifier: string, clientSecret: string) {
  const response = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: CLIENT_ID,
      client_secret: clientSecret,
      code_verifier: verifier,
    }),
    signal: AbortSignal.timeout(15_000),
  });
  return {
    status: response.status,
    body: (await response.json()) as { access_token?: string; scope?: string; error?: string },
  };
}

export async function checkCodeFlowAcrossSso(clientSecret: string): Promise<Outcome> {
  const first = instanceName('sso', 1);
  const second = instanceName('sso', 2);
  const [at1, at2] = [replicaUrl(first, SSO_PORT), replicaUrl(second, SSO_PORT)];
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const code = await authorize(at1, challenge, randomBytes(16).toString('base64url'));
  const redeemed = await redeem(at2, code, verifier, clientSecret);
  if (redeemed.status !== 200 || !redeemed.body.access_token)
    return {
      name: NAME,
      ok: false,
      detail: `code from ${first} redeemed at ${second}: HTTP ${redeemed.status} ${JSON.stringify(redeemed.body)}`,
    };
  const query = await graphql(
    redeemed.body.access_token,
    '{ account { id } devices(pageSize: 1) { list { id } } }',
  );
  const answered = query.status === 200 && !query.body.errors && Boolean(query.body.data?.account);
  const again = await redeem(at1, code, verifier, clientSecret);
  const refusedAgain = again.status === 400 && again.body.error === 'invalid_grant';
  // A code presented twice revokes what it was redeemed for: the gateways refuse the token.
  const presentedAgainAt = Date.now();
  let revokedAfterMs: number | undefined;
  while (revokedAfterMs === undefined && Date.now() - presentedAgainAt < 3000) {
    const answer = await graphql(redeemed.body.access_token, '{ account { id } }');
    if (
      answer.status === 401 ||
      answer.body.errors?.some((e) => /UNAUTH|REVOKED/i.test(e.extensions?.code ?? ''))
    )
      revokedAfterMs = Date.now() - presentedAgainAt;
    else await delay(50);
  }
  return {
    name: NAME,
    ok: answered && refusedAgain && revokedAfterMs !== undefined,
    detail:
      `authorized (PKCE S256) at ${first}, code redeemed at ${second} (scope ${redeemed.body.scope}); ` +
      `the token ${answered ? 'answered' : `did not answer (${JSON.stringify(query.body).slice(0, 200)})`} through the balanced gateway (${query.instance}); ` +
      `the code presented again at ${first}: HTTP ${again.status} ${again.body.error ?? ''}, ` +
      `its token then refused by the gateway ${revokedAfterMs === undefined ? 'not within 3 s' : `${revokedAfterMs} ms later`}`,
  };
}
