import { from, uuidsOnly, type PageArgs } from '@fleetgraph/paging';
import { visibleDevices } from '@fleetgraph/visibility';
import { rootPage } from '../list';
import {
  account,
  device,
  nested,
  ownOrganization,
  vehicle,
  type Ctx,
  type Row,
} from '../../data/services/kit';
import { alertFeedbacks, alertTemplates } from '../../data/services/alerts/tables';

type FeedbackArgs = PageArgs & {
  alertIds?: string[] | null;
  language?: string | null;
  status?: string | null;
};

/** The state of a device without alerts. */
const noAlerts = () => ({
  activeCount: 0,
  criticalCount: 0,
  totalCount: 0,
  highestActiveSeverity: null,
  activeTypes: [],
  lastAlertAt: null,
});

export const alertResolvers = {
  Query: {
    alertTemplate: (_: unknown, args: { id: string }, { reader }: Ctx) =>
      reader.services.alertTemplate.load(args.id),

    alertTemplates(_: unknown, args: PageArgs, { reader }: Ctx) {
      const { knex, viewer } = reader;
      const base = from(knex, alertTemplates).whereRaw(ownOrganization(knex, 'at', viewer));
      return rootPage(reader, 'alertTemplates', alertTemplates, args, {}, base);
    },

    alertFeedbacks(_: unknown, args: FeedbackArgs, { reader }: Ctx) {
      const { knex, viewer } = reader;
      const filters = { alertIds: args.alertIds, language: args.language, status: args.status };
      const base = from(knex, alertFeedbacks).whereIn(
        'vf.alert_id',
        knex('fleet.vehicle_alerts as va')
          .select('va.id')
          .whereIn('va.device_id', visibleDevices(knex, viewer)),
      );
      if (args.alertIds) base.whereIn('vf.alert_id', uuidsOnly(args.alertIds));
      if (args.language) base.where('vf.language', args.language);
      if (args.status) base.where('vf.status', args.status);
      return rootPage(reader, 'alertFeedbacks', alertFeedbacks, args, filters, base);
    },
  },
  Group: { alerts: nested('groupAlerts') },
  Device: {
    alerts: nested('deviceAlerts'),
    async alertsState(row: Row, _: unknown, { reader }: Ctx) {
      return (await reader.services.alertsState.load(String(row.id))) ?? noAlerts();
    },
  },
  AlertTemplate: { attachments: nested('templateAttachments') },
  VehicleAlert: { device: device('deviceId'), vehicle: vehicle('vehicleId') },
  VehicleAlertFeedback: {
    alert: (row: Row, _: unknown, { reader }: Ctx) => reader.services.alert.load(String(row.alertId)),
    author: account('accountId'),
  },
};
