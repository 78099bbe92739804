/**
 * Steady traffic against the running platform while faults happen: one client querying the
 * graph through the gateway, one getting tokens at the SSO, each one request at a time. Every
 * answer is kept (when, how long, ok or which error code) so a fault's window can be summarised.
 */
export interface Sample {
  probe: 'gateway' | 'sso';
  at: number;
  ms: number;
  ok: boolean;
  /** The error: GraphQL extensions.code, RFC 6749 error, HTTP status or network error. */
  code?: string;
}

export interface ProbeTargets {
  gateway: string;
  sso: string;
  email: string;
  password: string;
}

async function timed(probe: Sample['probe'], work: () => Promise<string | undefined>): Promise<Sample> {
  const at = Date.now();
  try {
    const code = await work();
    return { probe, at, ms: Date.now() - at, ok: code === undefined, ...(code ? { code } : {}) };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return { probe, at, ms: Date.now() - at, ok: false, code: cause ?? (error as Error).name };
  }
}

async function token(targets: ProbeTargets): Promise<{ token?: string; code?: string }> {
  const response = await fetch(`${targets.sso}/oauth/token`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'password',
      username: targets.email,
      password: targets.password,
    }),
    signal: AbortSignal.timeout(30_000),
  });
  const body = (await response.json().catch(() => ({}))) as { access_token?: string; error?: string };
  if (body.access_token) return { token: body.access_token };
  return { code: `${response.status} ${body.error ?? ''}`.trim() };
}

export function startProbes(targets: ProbeTargets, intervalMs = 100) {
  const samples: Sample[] = [];
  let running = true;
  let accessToken: string | undefined;

  async function gatewayLoop() {
    while (running) {
      samples.push(
        await timed('gateway', async () => {
          if (!accessToken) {
            const got = await token(targets);
            if (!got.token) return `no token (${got.code})`;
            accessToken = got.token;
          }
          const response = await fetch(`${targets.gateway}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
            body: JSON.stringify({ query: '{ account { fullName } devices(pageSize: 5) { list { id } } }' }),
            signal: AbortSignal.timeout(30_000),
          });
          const body = (await response.json().catch(() => ({}))) as {
            data?: { account?: unknown };
            errors?: { extensions?: { code?: string } }[];
          };
          if (response.ok && body.data?.account && !body.errors) return undefined;
          return body.errors?.[0]?.extensions?.code ?? `HTTP ${response.status}`;
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }

  async function ssoLoop() {
    while (running) {
      samples.push(await timed('sso', async () => (await token(targets)).code));
      await new Promise((resolve) => setTimeout(resolve, intervalMs * 3));
    }
  }

  const loops = Promise.all([gatewayLoop(), ssoLoop()]);
  return {
    samples,
    async stop() {
      running = false;
      await loops;
    },
  };
}

export interface FaultSummary {
  fault: string;
  requests: number;
  errors: Record<string, number>;
  longestWaitMs: number;
  /** From the fault's end to the first success of every probe after it (undefined: never). */
  recoveryMs: number | undefined;
}

export function summarise(
  fault: string,
  samples: Sample[],
  from: number,
  healedAt: number,
  until: number,
): FaultSummary {
  const window = samples.filter((s) => s.at >= from && s.at <= until);
  const errors: Record<string, number> = {};
  for (const sample of window)
    if (!sample.ok)
      errors[`${sample.probe}: ${sample.code}`] = (errors[`${sample.probe}: ${sample.code}`] ?? 0) + 1;
  const recovered = (['gateway', 'sso'] as const).map(
    (probe) => window.find((s) => s.probe === probe && s.ok && s.at >= healedAt)?.at,
  );
  return {
    fault,
    requests: window.length,
    errors,
    longestWaitMs: Math.max(0, ...window.map((s) => s.ms)),
    recoveryMs: recovered.every((at) => at !== undefined)
      ? Math.max(...(recovered as number[])) - healedAt
      : undefined,
  };
}
