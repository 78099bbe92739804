/**
 * The one version gate of the engine's ports. Each port in this folder follows code of
 * @apollo/gateway or @apollo/server that is not their public API (an export replaced inside
 * `dist/`, the answer Apollo Server would have sent). The ports run only on the minor release line
 * they were reviewed against; with any other installed, the gateway runs Apollo's own code for
 * them and says so once in its log. README.md in this folder lists the ports and how to upgrade.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The exact versions the ports were last reviewed against (version-gate.test.ts holds them to it). */
export const REVIEWED_VERSIONS = {
  '@apollo/gateway': '2.14.4',
  '@apollo/server': '5.5.1',
} as const;

export type EnginePackage = keyof typeof REVIEWED_VERSIONS;

export type EngineGate = { ported: true } | { ported: false; reason: string };

const require = createRequire(import.meta.url);

/** The installed version of an engine package (its package.json is not always exported). */
export function installedVersion(name: EnginePackage): string {
  let dir = dirname(require.resolve(name));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === name && manifest.version) return manifest.version;
    } catch {
      // not this folder's package.json: look one level up
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`${name}: no package.json above ${require.resolve(name)}`);
    dir = parent;
  }
}

const minorLine = (version: string) => version.split('.').slice(0, 2).join('.');

/** Whether the installed engine is on the reviewed release lines (patch releases keep the ports). */
export function engineGate(installed: (name: EnginePackage) => string = installedVersion): EngineGate {
  const outdated = (Object.keys(REVIEWED_VERSIONS) as EnginePackage[]).flatMap((name) => {
    const version = installed(name);
    return minorLine(version) === minorLine(REVIEWED_VERSIONS[name])
      ? []
      : [`${name} ${version} is not the ${minorLine(REVIEWED_VERSIONS[name])} line the ports follow`];
  });
  return outdated.length === 0 ? { ported: true } : { ported: false, reason: outdated.join('; ') };
}
