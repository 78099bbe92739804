/**
 * Load generator for the SSO benchmark, run in a worker thread (see formLoad) so that its own
 * work (HTTP client, JSON parsing) stays off the event loop of the server it measures. Each loop
 * posts its form again and again until `seconds` have passed; with `chain`, a loop posts a
 * refresh grant with the refresh token of its previous answer (rotation makes each one single-use).
 * Answers the number of 200s; anything else stops the run with the answer's body.
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';

export interface FormLoadInput {
  url: string;
  /** One form per concurrent loop (URL-encoded body). */
  forms: string[];
  seconds: number;
  chain: boolean;
}

const { url, forms, seconds, chain } = workerData as FormLoadInput;
const target = new URL(url);
const agent = new Agent({ keepAlive: true, maxSockets: forms.length });

function post(body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: {
          accept: 'application/json',
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const deadline = performance.now() + seconds * 1000;
const started = performance.now();
let done = 0;
await Promise.all(
  forms.map(async (first) => {
    let body = first;
    while (performance.now() < deadline) {
      const { status, text } = await post(body);
      if (status !== 200) throw new Error(`answered ${status}: ${text}`);
      if (chain) {
        const { refresh_token } = JSON.parse(text) as { refresh_token: string };
        body = new URLSearchParams({ grant_type: 'refresh_token', refresh_token }).toString();
      }
      done++;
    }
  }),
);
agent.destroy();
parentPort!.postMessage({ done, ms: performance.now() - started });
