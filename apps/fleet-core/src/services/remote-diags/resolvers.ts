import { nested } from '../kit';

export const remoteDiagResolvers = {
  Device: { remoteDiags: nested('deviceRemoteDiags') },
};
