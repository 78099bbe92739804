import assert from 'node:assert/strict';
import { test } from 'node:test';
import { engineGate, installedVersion, REVIEWED_VERSIONS, type EnginePackage } from './version-gate';

test('the installed Apollo packages are the versions the engine ports were reviewed against', () => {
  for (const name of Object.keys(REVIEWED_VERSIONS) as EnginePackage[])
    assert.equal(
      installedVersion(name),
      REVIEWED_VERSIONS[name],
      `${name} changed: review every port listed in apps/gateway/src/engine/README.md against the new ` +
        'version, then update REVIEWED_VERSIONS in version-gate.ts',
    );
  assert.deepEqual(engineGate(), { ported: true });
});

test('a patch release keeps the ports; another minor line runs Apollo’s own code', () => {
  const patched = (name: EnginePackage) => REVIEWED_VERSIONS[name].replace(/\.\d+$/, '.99');
  assert.deepEqual(engineGate(patched), { ported: true });
  const gate = engineGate((name) => (name === '@apollo/gateway' ? '2.15.0' : REVIEWED_VERSIONS[name]));
  assert.equal(gate.ported, false);
  assert.match(gate.ported ? '' : gate.reason, /@apollo\/gateway 2\.15\.0 is not the 2\.14 line/);
});
