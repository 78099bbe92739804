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
import { fieldCostsOf } from '@fleetgraph/query-limits';
import { readSdl } from '@fleetgraph/subgraph-kit';
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

/** The numbers a page size description states, as `default D` and `max D` / `maximum D` / `1 to D`. */
function statedPageSizes(text: string): { defaults: number[]; maxima: number[] } {
  const number = (value: string) => Number(value.replace(/,/g, ''));
  const flat = text.replace(/\s+/g, ' ');
  return {
    defaults: [...flat.matchAll(/default (?:page size )?(\d[\d,]*)/gi)].map((m) => number(m[1]!)),
    maxima: [...flat.matchAll(/(?:max(?:imum)?|1 to) (\d[\d,]*)/gi)].map((m) => number(m[1]!)),
  };
}

test('every paged field declares @paged, and its descriptions state the declared default and maximum', () => {
  const wrong: string[] = [];
  let paged = 0;
  for (const subgraph of SUBGRAPHS) {
    const document = parse(readSdl(subgraph.schemaDir));
    const costs = fieldCostsOf(document);
    for (const definition of document.definitions) {
      if (!('fields' in definition) || !definition.fields || !('name' in definition)) continue;
      for (const field of definition.fields as readonly FieldDefinitionNode[]) {
        const pageSize = field.arguments?.find((arg) => arg.name.value === 'pageSize');
        if (!pageSize) continue;
        paged += 1;
        const coordinate = `${definition.name!.value}.${field.name.value}`;
        const declared = costs.get(coordinate);
        if (declared?.defaultPageSize === undefined || declared.maxPageSize === undefined) {
          wrong.push(`${subgraph.name} ${coordinate}: no @paged(default:, max:)`);
          continue;
        }
        for (const [where, text] of [
          ['description', field.description?.value ?? ''],
          ['pageSize description', pageSize.description?.value ?? ''],
        ] as const) {
          const stated = statedPageSizes(text);
          if (where === 'description' && stated.defaults.length === 0 && stated.maxima.length === 0) continue;
          if (
            !stated.defaults.includes(declared.defaultPageSize) ||
            stated.defaults.some((d) => d !== declared.defaultPageSize)
          )
            wrong.push(
              `${subgraph.name} ${coordinate}: ${where} states default ${stated.defaults.join('/') || 'none'}, @paged says ${declared.defaultPageSize}`,
            );
          if (
            !stated.maxima.includes(declared.maxPageSize) ||
            stated.maxima.some((m) => m !== declared.maxPageSize)
          )
            wrong.push(
              `${subgraph.name} ${coordinate}: ${where} states maximum ${stated.maxima.join('/') || 'none'}, @paged says ${declared.maxPageSize}`,
            );
        }
      }
    }
  }
  assert.ok(paged > 50, `only ${paged} paged fields found`);
  assert.deepEqual(wrong, [], wrong.join('\n'));
});
