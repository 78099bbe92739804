import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Kind, parse } from 'graphql';
import { LANGUAGE_CODES } from './shared-enums';

const sharedSdl = parse(readFileSync(new URL('../sdl/shared.graphql', import.meta.url), 'utf8'));

function enumValues(name: string): string[] {
  const definition = sharedSdl.definitions.find(
    (d) => d.kind === Kind.ENUM_TYPE_DEFINITION && d.name.value === name,
  );
  assert.ok(definition && definition.kind === Kind.ENUM_TYPE_DEFINITION, `enum ${name} in shared.graphql`);
  return (definition.values ?? []).map((v) => v.name.value);
}

test('LANGUAGE_CODES are exactly the values of the shared Language enum, in its order', () => {
  assert.deepEqual([...LANGUAGE_CODES], enumValues('Language'));
});
