/**
 * A subgraph's SDL: its `*.graphql` files (one folder, name order), plus the shared definitions
 * (libs/subgraph-kit/sdl/shared.graphql: DateTime, Language) that it uses without defining.
 * Shared enums exist in one source file, so every subgraph that takes `locale: Language` agrees
 * with every other on its values, as composition requires.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kind, parse, print, visit, type DefinitionNode, type DocumentNode } from 'graphql';

const SHARED_SDL = join(dirname(fileURLToPath(import.meta.url)), '..', 'sdl', 'shared.graphql');
let shared: readonly DefinitionNode[] | undefined;

function sharedDefinitions(): readonly DefinitionNode[] {
  shared ??= parse(readFileSync(SHARED_SDL, 'utf8')).definitions;
  return shared;
}

function ownSdl(schemaDir: string): string {
  const files = readdirSync(schemaDir)
    .filter((f) => f.endsWith('.graphql'))
    .sort();
  if (files.length === 0) throw new Error(`no .graphql files in ${schemaDir}`);
  return files.map((f) => readFileSync(join(schemaDir, f), 'utf8')).join('\n');
}

const nameOf = (d: DefinitionNode) => ('name' in d && d.name ? d.name.value : undefined);

/**
 * The shared definitions a document references but does not define: types by name, directives as
 * `@name` (a directive and a type may share a name).
 */
function missingShared(document: DocumentNode): DefinitionNode[] {
  const keyOf = (d: DefinitionNode) =>
    d.kind === Kind.DIRECTIVE_DEFINITION ? `@${d.name.value}` : nameOf(d);
  const defined = new Set(document.definitions.filter((d) => !d.kind.endsWith('Extension')).map(keyOf));
  const referenced = new Set<string>();
  visit(document, {
    NamedType(node) {
      referenced.add(node.name.value);
    },
    Directive(node) {
      referenced.add(`@${node.name.value}`);
    },
  });
  return sharedDefinitions().filter((d) => {
    const key = keyOf(d);
    return key !== undefined && referenced.has(key) && !defined.has(key);
  });
}

/** The subgraph's schema as one document (own files and the shared definitions it uses). */
export function loadTypeDefs(schemaDir: string): DocumentNode {
  const own = parse(ownSdl(schemaDir));
  return { kind: Kind.DOCUMENT, definitions: [...own.definitions, ...missingShared(own)] };
}

/** The same schema as SDL text (composition reads this). */
export function readSdl(schemaDir: string): string {
  const text = ownSdl(schemaDir);
  const extra = missingShared(parse(text));
  return extra.length === 0 ? text : `${text}\n${extra.map((d) => print(d)).join('\n\n')}\n`;
}

/** Every enum of the subgraph's schema (own files and the shared definitions it uses): name -> values. */
export function schemaEnums(schemaDir: string): Map<string, string[]> {
  return new Map(
    loadTypeDefs(schemaDir).definitions.flatMap((d) =>
      d.kind === Kind.ENUM_TYPE_DEFINITION ? [[d.name.value, (d.values ?? []).map((v) => v.name.value)]] : [],
    ),
  );
}
