/**
 * `nx g @fleetgraph/tools:subgraph <name>`: Nx loads generators with require(); the
 * implementation is TypeScript (files.ts), loaded through tsx.
 */
const { join } = require('node:path');
const { require: tsxRequire } = require('tsx/cjs/api');

const { subgraphFiles, nextPort } = tsxRequire('./files.ts', __filename);
const TEMPLATES = join(__dirname, '..', '..', 'files', 'subgraph');

module.exports = async function subgraphGenerator(tree, options) {
  if (tree.exists(`apps/${options.name}`)) throw new Error(`apps/${options.name} already exists`);
  const manifests = tree
    .children('apps')
    .map((app) => `apps/${app}/src/manifest.ts`)
    .filter((path) => tree.exists(path))
    .map((path) => tree.read(path, 'utf-8'));
  const port = options.port ?? nextPort(manifests);
  const date = new Date().toISOString().slice(0, 10).replace(/-/g, '');
  for (const [path, content] of subgraphFiles(TEMPLATES, { name: options.name, port, date })) {
    tree.write(path, content);
  }
  return () => {
    console.log(
      [
        '',
        `apps/${options.name} is ready (port ${port}). Next:`,
        '  npm install                      # links the new workspace package',
        '  npm run compose                  # adds it to supergraph.graphql',
        `  npm test -- apps/${options.name}  # its generated test`,
        '  npm start                        # it starts with the platform',
        `Then replace the example entity in apps/${options.name}/src (schema, data, resolvers, migration).`,
      ].join('\n'),
    );
  };
};
