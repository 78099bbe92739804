/** The parameter rules of the `lpa` query (eSIM Local Profile Assistant functions). */
import { badInput } from '@fleetgraph/paging';

const ICCID = /^\d{17,21}[\dF]$/i; // 18 to 22 characters, the last may be F
const ACTIVATION_CODE = /^LPA:1\$[^$\s]+\$[^$\s]*(\$.*)?$/;

/** The parameters that identify an operation (and are echoed back as `Parameters`). */
export const LPA_FIELDS = ['iccid', 'activationCode', 'smdpAddress', 'matchingId', 'nickname'] as const;

export interface LpaParameters {
  iccid?: string | null;
  activationCode?: string | null;
  smdpAddress?: string | null;
  matchingId?: string | null;
  confirmationCode?: string | null;
  nickname?: string | null;
}

const fail = (message: string, parameter: string) =>
  badInput(message, { argument: `parameters.${parameter}` });

/** Refuses malformed values whatever the function. */
function validateFormats(p: LpaParameters): void {
  if (p.iccid != null && !ICCID.test(p.iccid))
    throw fail('iccid must have 18 to 22 digits (the last may be F).', 'iccid');
  if (p.activationCode != null && !ACTIVATION_CODE.test(p.activationCode)) {
    throw fail('activationCode must look like LPA:1$<SM-DP+ address>$<matching id>.', 'activationCode');
  }
  if (p.nickname != null && (p.nickname.length === 0 || p.nickname.length > 64)) {
    throw fail('nickname must have 1 to 64 characters.', 'nickname');
  }
}

/** Refuses parameters that cannot work for the function (BAD_USER_INPUT naming the parameter). */
export function validateLpa(functionName: string, p: LpaParameters): void {
  validateFormats(p);
  switch (functionName) {
    case 'DOWNLOAD_AND_ENABLE_PROFILE':
    case 'DOWNLOAD_PROFILE':
      if (!p.activationCode && !(p.smdpAddress && p.matchingId)) {
        throw fail(`${functionName} needs activationCode, or smdpAddress and matchingId.`, 'activationCode');
      }
      return;
    case 'ENABLE_PROFILE':
    case 'DISABLE_PROFILE':
    case 'DELETE_PROFILE':
      if (!p.iccid) throw fail(`${functionName} needs the iccid of the profile.`, 'iccid');
      return;
    case 'SET_NICKNAME':
      if (!p.iccid) throw fail('SET_NICKNAME needs the iccid of the profile.', 'iccid');
      if (!p.nickname) throw fail('SET_NICKNAME needs a nickname.', 'nickname');
      return;
    default:
      return;
  }
}
