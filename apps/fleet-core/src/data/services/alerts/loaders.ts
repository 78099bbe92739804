import { deviceVisibleTo } from '@fleetgraph/visibility';
import { serviceLookup, type LoaderEnv } from '../kit';
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

const alertTemplate = serviceLookup({ column: 'at.id', kind: 'uuid' }, ({ select, ownOrg }) =>
  select(alertTemplates).whereRaw(ownOrg('at')),
);
const alert = serviceLookup({ column: 'va.id', kind: 'uuid' }, ({ knex, viewer, select }) =>
  select(vehicleAlerts).where(deviceVisibleTo(knex, viewer, 'va.device_id')),
);

/** Aggregated alert state per device (devices reach here only once visible). */
const alertsState = serviceLookup({ column: 'va.device_id', field: 'deviceId', kind: 'text' }, ({ knex }) =>
  knex('fleet.vehicle_alerts as va')
    .select('va.device_id as deviceId', ...ALERT_STATE_COLUMNS.map((sql) => knex.raw(sql)))
    .groupBy('va.device_id'),
);

export const alertLoaders = (env: LoaderEnv) => ({
  alertTemplate: alertTemplate(env),
  alert: alert(env),
  alertsState: alertsState(env),
});
