/** Argument rules (BAD_USER_INPUT with a clear message), authentication, and the SDL contract. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildASTSchema, isEnumType, isObjectType } from 'graphql';
import { loadTypeDefs, readSdl } from '@fleetgraph/subgraph-kit';
import { SCHEMA_DIR } from './app';
import { GEODECODE_FIELDS, startHarness, VIEWER, type Harness } from './testing/harness';

let h: Harness;
before(async () => {
  h = await startHarness('geo_input');
});
after(() => h.close());

async function rejected(args: Record<string, unknown>, argumentName: string, message: RegExp) {
  const res = await h.geodecode(args);
  assert.equal(res.status, 200);
  assert.deepEqual(res.data, { geodecode: null });
  assert.equal(res.errors?.length, 1);
  const [error] = res.errors!;
  assert.equal(error!.extensions?.code, 'BAD_USER_INPUT');
  assert.equal(error!.extensions?.argumentName, argumentName);
  assert.match(error!.message, message);
}

describe('bad input is BAD_USER_INPUT with a clear message', () => {
  test('coordinates out of range', async () => {
    await rejected({ lat: 91, lng: 2 }, 'lat', /lat must be between -90 and 90 degrees \(got 91\)/);
    await rejected({ lat: -90.5, lng: 2 }, 'lat', /lat must be between -90 and 90/);
    await rejected({ lat: 48, lng: 180.01 }, 'lng', /lng must be between -180 and 180 degrees/);
  });

  test('missing coordinates', async () => {
    await rejected({ lat: 48.8566 }, 'lng', /lng is required: pass both lat and lng/);
    await rejected({ lng: 2.35 }, 'lat', /lat is required/);
    await rejected({}, 'lat', /lat and lng are required/);
  });

  test('unknown language', async () => {
    await rejected(
      { lat: 48.8566, lng: 2.3522, lang: 'xx' },
      'lang',
      /lang must be an ISO 639-1 two-letter language code .* \(got "xx"\)/,
    );
    await rejected({ lat: 48.8566, lng: 2.3522, lang: 'english' }, 'lang', /ISO 639-1/);
    await rejected({ lat: 48.8566, lng: 2.3522, lang: '' }, 'lang', /ISO 639-1/);
  });

  test('maxResult and radius out of bounds', async () => {
    await rejected(
      { lat: 48.8566, lng: 2.3522, maxResult: 0 },
      'maxResult',
      /maxResult must be between 1 and 50 \(got 0\)/,
    );
    await rejected({ lat: 48.8566, lng: 2.3522, maxResult: 51 }, 'maxResult', /between 1 and 50/);
    await rejected(
      { lat: 48.8566, lng: 2.3522, radius: 0 },
      'radius',
      /radius must be between 1 and 50000 meters \(got 0\)/,
    );
    await rejected({ lat: 48.8566, lng: 2.3522, radius: 50_001 }, 'radius', /between 1 and 50000/);
  });

  test('IC without a code or point, or with a malformed code', async () => {
    await rejected({ lang: 'IC' }, 'countryCode', /pass countryCode/);
    await rejected({ lang: 'IC', countryCode: 'F1' }, 'countryCode', /ISO 3166-1 alpha-2 or alpha-3/);
    await rejected({ lang: 'IC', countryCode: 'FRAN' }, 'countryCode', /ISO 3166-1/);
    await rejected({ lang: 'IC', lat: 95, lng: 0 }, 'lat', /lat must be between/);
  });

  test('defaults apply when arguments are omitted from the query text', async () => {
    const res = await h.gql(`{ geodecode(lat: -1.2921, lng: 36.8219) { elements { kind city country } } }`);
    assert.equal(res.errors, undefined);
    assert.deepEqual(res.data.geodecode.elements, [{ kind: 'CITY', city: 'Nairobi', country: 'Kenya' }]);
  });
});

describe('authentication', () => {
  const query = `{ geodecode(lat: 48.8566, lng: 2.3522) { ${GEODECODE_FIELDS} } }`;

  test('a request without a token is refused', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/graphql', payload: { query } });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().errors[0].extensions.code, 'UNAUTHENTICATED');
    assert.equal(res.json().data, null);
  });

  test('a token from another issuer or an expired one is refused', async () => {
    for (const token of [
      await h.issuer.token(VIEWER, { issuer: 'http://evil.test' }),
      await h.issuer.token(VIEWER, { expiresIn: -60 }),
    ]) {
      const res = await h.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { authorization: `Bearer ${token}` },
        payload: { query },
      });
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().errors[0].extensions.code, 'UNAUTHENTICATED');
    }
  });
});

describe('schema', () => {
  test('every type, field, argument and enum value of the subgraph SDL is described', () => {
    const doc = loadTypeDefs(SCHEMA_DIR);
    const text = readSdl(SCHEMA_DIR);
    assert.match(text, /^extend schema\s+@link\(url: "https:\/\/specs\.apollo\.dev\/federation\/v2\.\d+"/);
    const schema = buildASTSchema(doc, { assumeValidSDL: true });
    const missing: string[] = [];
    for (const name of ['Query', 'Geodecode', 'GeodecodeExtent', 'GeodecodeElements', 'GeodecodeKind']) {
      const type = schema.getType(name)!;
      if (!type.description && name !== 'Query') missing.push(name);
      if (isObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (!field.description) missing.push(`${name}.${field.name}`);
          for (const arg of field.args)
            if (!arg.description) missing.push(`${name}.${field.name}(${arg.name})`);
        }
      }
      if (isEnumType(type))
        for (const value of type.getValues()) if (!value.description) missing.push(`${name}.${value.name}`);
    }
    assert.deepEqual(missing, []);
  });
});
