import { nested } from '../../data/services/kit';

export const remoteDiagResolvers = {
  Device: { remoteDiags: nested('deviceRemoteDiags') },
};
