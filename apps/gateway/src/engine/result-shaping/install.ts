/**
 * Puts compiled-shaping.ts's `computeResponse` in the place of @apollo/gateway's own.
 *
 * Apollo's executor (executeQueryPlan.js) calls `resultShaping.computeResponse` through the
 * module's exports object at every request, so replacing that export is enough; no other code of
 * Apollo's changes. The engine's version gate (../version-gate.ts) decides whether it runs, so an
 * upgrade can never run a port of older code. The federation-internals used by the port is the
 * gateway's own copy.
 */
import { createRequire } from 'node:module';
import { engineGate } from '../version-gate';
import { computeResponse } from './compiled-shaping';

const require = createRequire(import.meta.url);

interface ShapingModule {
  computeResponse: unknown;
}

export type ShapingInstall = { installed: true } | { installed: false; reason: string };

let outcome: ShapingInstall | undefined;
let apollos: unknown;

/** Installs the compiled shaping once per process; later calls report the first outcome. */
export function installCompiledResultShaping(): ShapingInstall {
  outcome ??= install();
  return outcome;
}

function install(): ShapingInstall {
  const gate = engineGate();
  if (!gate.ported) return { installed: false, reason: gate.reason };
  const shaping = require('@apollo/gateway/dist/resultShaping.js') as ShapingModule;
  if (typeof shaping.computeResponse !== 'function')
    return { installed: false, reason: '@apollo/gateway has no resultShaping.computeResponse' };
  apollos = shaping.computeResponse;
  shaping.computeResponse = computeResponse;
  return { installed: true };
}

/** Apollo's own `computeResponse`, installed or not (the tests compare the port with it). */
export function apolloComputeResponse(): typeof computeResponse {
  const shaping = require('@apollo/gateway/dist/resultShaping.js') as ShapingModule;
  return (apollos ?? shaping.computeResponse) as typeof computeResponse;
}

/** True when requests are shaped by the port (for tests and the benchmark's report). */
export function compiledShapingInstalled(): boolean {
  const shaping = require('@apollo/gateway/dist/resultShaping.js') as ShapingModule;
  return shaping.computeResponse === computeResponse;
}
