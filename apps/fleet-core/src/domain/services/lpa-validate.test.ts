/** The parameter rules of the lpa query (validateLpa), as pure logic. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateLpa } from './lpa-validate';

const refused = (functionName: string, parameters: Record<string, string>) =>
  assert.throws(
    () => validateLpa(functionName, parameters),
    (error: Error & { extensions?: { code?: string } }) => {
      assert.equal(error.extensions?.code, 'BAD_USER_INPUT');
      return true;
    },
  );

test('an ICCID has 18 to 22 characters, digits with an optional final F', () => {
  for (const iccid of ['8'.repeat(18), '8'.repeat(22), `${'8'.repeat(19)}F`])
    assert.doesNotThrow(() => validateLpa('ENABLE_PROFILE', { iccid }), iccid);
  for (const iccid of ['8'.repeat(17), '8'.repeat(23), `${'8'.repeat(10)}F${'8'.repeat(8)}`, 'ABC'])
    refused('ENABLE_PROFILE', { iccid });
});

test('each function names the parameters it needs', () => {
  refused('DOWNLOAD_PROFILE', {});
  refused('DOWNLOAD_PROFILE', { smdpAddress: 'smdp.example' });
  assert.doesNotThrow(() =>
    validateLpa('DOWNLOAD_PROFILE', { smdpAddress: 'smdp.example', matchingId: 'M-1' }),
  );
  assert.doesNotThrow(() =>
    validateLpa('DOWNLOAD_AND_ENABLE_PROFILE', { activationCode: 'LPA:1$smdp.example$M-1' }),
  );
  refused('DOWNLOAD_AND_ENABLE_PROFILE', { activationCode: 'not a code' });
  refused('SET_NICKNAME', { iccid: '8'.repeat(19) });
  refused('SET_NICKNAME', { iccid: '8'.repeat(19), nickname: 'x'.repeat(65) });
  assert.doesNotThrow(() => validateLpa('GET_EID', {}));
});
