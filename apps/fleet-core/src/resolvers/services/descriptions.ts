import { nested, type Ctx, type Row } from '../../data/services/kit';

export const descriptionResolvers = {
  Query: {
    async description(_: unknown, args: { subject: string; id: string }, { reader }: Ctx) {
      const row = (await reader.services.description.load(args.id)) as Row | null;
      return row && row.subject === args.subject ? row : null;
    },
  },
  Account: { descriptions: nested('accountDescriptions') },
  Group: { descriptions: nested('groupDescriptions') },
  Device: { descriptions: nested('deviceDescriptions') },
  Vehicle: { descriptions: nested('vehicleDescriptions') },
  Driver: { descriptions: nested('driverDescriptions') },
};
