/**
 * The explorer's static files, served by the gateway itself (no CDN): GraphiQL 3's UMD build and
 * stylesheet, React 18 and ReactDOM UMD, and the explorer's own script and stylesheet. Each is read
 * once at start, addressed by its content hash (/explorer/assets/<hash>/<name>) and so cached by
 * browsers for a year (immutable); gzip is computed once, on first request.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export interface Asset {
  name: string;
  hash: string;
  type: string;
  body: Buffer;
  gzipped(): Buffer;
  url: string;
}

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

const SOURCES: Array<{ name: string; path: () => string; type: string }> = [
  { name: 'react.js', path: () => join(packageDir('react'), 'umd/react.production.min.js'), type: 'js' },
  {
    name: 'react-dom.js',
    path: () => join(packageDir('react-dom'), 'umd/react-dom.production.min.js'),
    type: 'js',
  },
  { name: 'graphiql.js', path: () => join(packageDir('graphiql'), 'graphiql.min.js'), type: 'js' },
  { name: 'graphiql.css', path: () => join(packageDir('graphiql'), 'graphiql.min.css'), type: 'css' },
  { name: 'explorer.js', path: () => join(here, 'client/explorer.js'), type: 'js' },
  { name: 'explorer.css', path: () => join(here, 'client/explorer.css'), type: 'css' },
];

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

export function loadAssets(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const source of SOURCES) {
    // The UMD builds end with a sourceMappingURL to a file the gateway does not serve.
    const text = readFileSync(source.path(), 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
    const body = Buffer.from(text, 'utf8');
    const hash = createHash('sha256').update(body).digest('base64url').slice(0, 16);
    let gz: Buffer | undefined;
    assets.set(source.name, {
      name: source.name,
      hash,
      type: TYPES[source.type] ?? 'application/octet-stream',
      body,
      gzipped: () => (gz ??= gzipSync(body, { level: 9 })),
      url: `/explorer/assets/${hash}/${source.name}`,
    });
  }
  return assets;
}
