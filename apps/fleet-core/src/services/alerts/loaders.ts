import { byKey, uuidsOnly } from '@fleetgraph/paging';
import { visibleDevices } from '@fleetgraph/visibility';
import type { LoaderEnv } from '../kit';
import { alertTemplates, vehicleAlerts } from './tables';

/** Aggregated alert state per device, as `VehicleAlertsState` fields. */
const ALERT_STATE_COLUMNS = [
  `count(*) filter (where va.status = 'ACTIVE')::int as "activeCount"`,
  `count(*) filter (where va.status = 'ACTIVE' and va.severity = 'CRITICAL')::int as "criticalCount"`,
  `count(*)::int as "totalCount"`,
  `max(va.started_at) as "lastAlertAt"`,
  `coalesce(array_agg(distinct va.type) filter (where va.status = 'ACTIVE'), '{}') as "activeTypes"`,
  `(array_agg(va.severity order by case va.severity when 'CRITICAL' then 0 when 'WARNING' then 1 else 2 end)
                 filter (where va.status = 'ACTIVE'))[1] as "highestActiveSeverity"`,
];

export const alertLoaders = ({ knex, viewer, select, ownOrg }: LoaderEnv) => ({
  alertTemplate: byKey(
    (keys) => select(alertTemplates).whereIn('at.id', uuidsOnly(keys)).whereRaw(ownOrg('at')),
    'id',
    'uuid',
  ),
  alert: byKey(
    (keys) =>
      select(vehicleAlerts)
        .whereIn('va.id', uuidsOnly(keys))
        .whereIn('va.device_id', visibleDevices(knex, viewer)),
    'id',
    'uuid',
  ),
  /** Aggregated alert state per device (devices reach here only once visible). */
  alertsState: byKey(
    (keys) =>
      knex('fleet.vehicle_alerts as va')
        .select('va.device_id as deviceId', ...ALERT_STATE_COLUMNS.map((sql) => knex.raw(sql)))
        .whereIn('va.device_id', keys as string[])
        .groupBy('va.device_id'),
    'deviceId',
    'text',
  ),
});
