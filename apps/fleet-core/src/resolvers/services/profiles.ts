import { nested, type Ctx, type Row } from '../../data/services/kit';

export const profileResolvers = {
  Device: {
    profilePrivacies: nested('deviceProfilePrivacies'),
    profilePrivacy: (row: Row, _: unknown, { reader }: Ctx) =>
      reader.services.currentPrivacy.load(String(row.id)),
    profileModes: nested('deviceProfileModes'),
    profileMode: (row: Row, _: unknown, { reader }: Ctx) => reader.services.currentMode.load(String(row.id)),
  },
};
