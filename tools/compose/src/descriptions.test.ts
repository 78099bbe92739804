import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Kind,
  parse,
  type FieldDefinitionNode,
  type InputValueDefinitionNode,
  type StringValueNode,
} from 'graphql';
import { subgraphEntries } from './subgraphs';

const SUBGRAPHS = await subgraphEntries();

const ROOT_TYPES = new Set(['Query', 'Mutation', 'Subscription']);

function described(node: { description?: StringValueNode }): boolean {
  return (node.description?.value.trim() ?? '') !== '';
}

/** Every item of one SDL file that lacks a description, as `Type`, `Type.field`, `Type.field(arg)`. */
function undescribed(sdl: string): string[] {
  const missing: string[] = [];
  const checkArguments = (owner: string, args: readonly InputValueDefinitionNode[] | undefined): void => {
    for (const arg of args ?? []) if (!described(arg)) missing.push(`${owner}(${arg.name.value})`);
  };
  const checkFields = (
    type: string,
    fields: readonly (FieldDefinitionNode | InputValueDefinitionNode)[] | undefined,
  ): void => {
    for (const field of fields ?? []) {
      const name = `${type}.${field.name.value}`;
      if (!described(field)) missing.push(name);
      if (field.kind === Kind.FIELD_DEFINITION) checkArguments(name, field.arguments);
    }
  };

  for (const definition of parse(sdl).definitions) {
    switch (definition.kind) {
      case Kind.OBJECT_TYPE_DEFINITION:
      case Kind.INTERFACE_TYPE_DEFINITION:
      case Kind.INPUT_OBJECT_TYPE_DEFINITION:
      case Kind.ENUM_TYPE_DEFINITION:
      case Kind.SCALAR_TYPE_DEFINITION:
      case Kind.UNION_TYPE_DEFINITION: {
        const type = definition.name.value;
        if (!ROOT_TYPES.has(type) && !described(definition)) missing.push(type);
        if (definition.kind === Kind.ENUM_TYPE_DEFINITION) {
          for (const value of definition.values ?? [])
            if (!described(value)) missing.push(`${type}.${value.name.value}`);
        } else if (
          definition.kind !== Kind.SCALAR_TYPE_DEFINITION &&
          definition.kind !== Kind.UNION_TYPE_DEFINITION
        ) {
          checkFields(type, definition.fields);
        }
        break;
      }
      case Kind.OBJECT_TYPE_EXTENSION:
      case Kind.INTERFACE_TYPE_EXTENSION:
      case Kind.INPUT_OBJECT_TYPE_EXTENSION:
        // The extension itself carries no description, but the fields it adds must.
        checkFields(definition.name.value, definition.fields);
        break;
      case Kind.ENUM_TYPE_EXTENSION:
        for (const value of definition.values ?? [])
          if (!described(value)) missing.push(`${definition.name.value}.${value.name.value}`);
        break;
      default:
        // `extend schema @link(...)`, directive definitions: not part of the client-facing API.
        break;
    }
  }
  return missing;
}

test('every type, field, argument and enum value of every subgraph schema is described', () => {
  const missing: string[] = [];
  let files = 0;
  for (const subgraph of SUBGRAPHS) {
    for (const file of readdirSync(subgraph.schemaDir)
      .filter((f) => f.endsWith('.graphql'))
      .sort()) {
      files += 1;
      const sdl = readFileSync(join(subgraph.schemaDir, file), 'utf8');
      for (const item of undescribed(sdl)) missing.push(`${subgraph.name}/${file}: ${item}`);
    }
  }
  assert.ok(files >= SUBGRAPHS.length, 'no schema files found');
  assert.deepEqual(missing, [], `${missing.length} undescribed:\n${missing.join('\n')}`);
});

test('an undescribed field, argument or enum value is reported', () => {
  const sdl = `
    "A thing."
    type Thing {
      "Its id."
      id: ID!
      label(lang: String): String
    }
    enum Color { RED }
    extend type Query { thing("Its id." id: ID!, other: ID): Thing }
  `;
  assert.deepEqual(undescribed(sdl), [
    'Thing.label',
    'Thing.label(lang)',
    'Color',
    'Color.RED',
    'Query.thing',
    'Query.thing(other)',
  ]);
});
