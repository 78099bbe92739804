/**
 * The files of a new subgraph, from the templates in tools/generators/files/subgraph: every path
 * and every file's text with its tokens replaced. Pure (templates in, files out), so the Nx
 * generator writes them into its Tree and tests can inspect them.
 *
 * Tokens: __name__ (fuel-cards), __Name__ (FuelCards), __nameCamel__ (fuelCards),
 * __NAME_ENV__ (FUEL_CARDS), __schema__ (fuel_cards), __port__, __date__ (20261123).
 * Template files end in `.template` so the workspace's test runner, typecheck and lint skip them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface SubgraphNames {
  name: string;
  pascal: string;
  camel: string;
  envPrefix: string;
  schema: string;
}

const NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
/** Names that would collide with the platform's own services or PostgreSQL schemas. */
const RESERVED = new Set(['gateway', 'sso', 'fleet', 'public', 'geo', 'tools', 'shared']);

export function subgraphNames(name: string): SubgraphNames {
  if (!NAME.test(name))
    throw new Error(`"${name}" is not a subgraph name: use lower-case words joined by dashes`);
  if (RESERVED.has(name)) throw new Error(`"${name}" is reserved`);
  const words = name.split('-');
  const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  return {
    name,
    pascal: words.map(cap).join(''),
    camel: words[0] + words.slice(1).map(cap).join(''),
    envPrefix: words.map((w) => w.toUpperCase()).join('_'),
    schema: words.join('_'),
  };
}

/** One above the highest `port:` declared by an existing subgraph manifest (4001 when none). */
export function nextPort(manifestSources: string[]): number {
  const ports = manifestSources.flatMap((source) => {
    const match = /^\s*port:\s*(\d+),/m.exec(source);
    return match ? [Number(match[1])] : [];
  });
  return ports.length === 0 ? 4001 : Math.max(...ports) + 1;
}

function templatePaths(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((entry) => {
      const path = join(dir, entry);
      return statSync(path).isDirectory() ? templatePaths(path) : [path];
    });
}

export function subgraphFiles(
  templatesDir: string,
  options: { name: string; port: number; date: string },
): Array<[path: string, content: string]> {
  const n = subgraphNames(options.name);
  const tokens: Array<[string, string]> = [
    ['__nameCamel__', n.camel],
    ['__NAME_ENV__', n.envPrefix],
    ['__Name__', n.pascal],
    ['__name__', n.name],
    ['__schema__', n.schema],
    ['__port__', String(options.port)],
    ['__date__', options.date],
  ];
  const fill = (text: string) => tokens.reduce((out, [token, value]) => out.split(token).join(value), text);
  return templatePaths(templatesDir).map((path) => {
    const target = fill(relative(templatesDir, path)).replace(/\.template$/, '');
    return [`apps/${n.name}/${target}`, fill(readFileSync(path, 'utf8'))];
  });
}
