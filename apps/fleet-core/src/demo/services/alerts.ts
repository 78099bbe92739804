/** Services demo of alerts: templates with attachments, vehicle alerts over the last 30 days and feedbacks. */
import { uuidV5 } from '../ids';
import { ALERTS } from './catalogs';
import { DAY, MINUTE, type OrgContext } from './context';

/** Alert templates per channel; e-mail ones with attachments. */
export function writeAlertTemplates(ctx: OrgContext): void {
  const { rng, org, french, push, at } = ctx;
  const templates = [
    ['battery-low-email', 'email', 'HTML', 'Battery low on {{vehicle.plate}}: {{alert.message}}'],
    [
      'engine-fault-email',
      'email',
      'HTML',
      'Engine fault on {{vehicle.plate}}: {{alert.message}}. Book a workshop: {{links.booking}}',
    ],
    ['crash-sms', 'sms', 'TEXT', 'CRASH {{vehicle.plate}} at {{alert.position}}. Call the driver now.'],
    ['maintenance-push', 'push', 'TEXT', '{{vehicle.plate}}: {{alert.message}}'],
    ['towing-sms', 'sms', 'TEXT', 'Possible towing of {{vehicle.plate}} near {{alert.position}}'],
    [
      'generic-webhook',
      'webhook',
      'JSON',
      '{"type":"{{alert.type}}","vehicle":"{{vehicle.id}}","message":"{{alert.message}}"}',
    ],
  ] as const;
  for (const [name, channel, contentType, definition] of templates) {
    const id = uuidV5(`alert-template:${org.id}:${name}`);
    push('fleet.alert_templates', {
      id,
      organization_id: org.id,
      name,
      version: `1.${rng.int(0, 4)}.0`,
      content_type: contentType,
      default_context: {
        company: org.name,
        supportPhone: french ? '+33 1 00 00 00 00' : '+49 40 000000',
      },
      locked: channel === 'sms',
      channel_name: channel,
      definition,
      created_at: at(rng.int(200, 600)),
      updated_at: at(rng.int(1, 100)),
    });
    if (channel === 'email') {
      ['logo.png', 'what-to-do.pdf'].forEach((filename, i) =>
        push('fleet.alert_attachments', {
          id: uuidV5(`alert-attachment:${id}:${filename}`),
          template_id: id,
          filename,
          content_type: filename.endsWith('.pdf') ? 'application/pdf' : 'image/png',
          byte_size: i === 0 ? 14_230 : 182_944,
          url: `https://files.fleetgraph.example/templates/${id}/${filename}`,
          created_at: at(rng.int(100, 200)),
        }),
      );
    }
  }
}

/** Vehicle alerts of the devices in a vehicle, and feedbacks on some. */
export function writeVehicleAlerts(ctx: OrgContext): void {
  const { rng, org, now, french, orgDevices, orgAccounts, push } = ctx;
  for (const d of orgDevices) {
    if (!d.current_vehicle_id) continue;
    const count = rng.weighted([
      [0, 3],
      [1, 3],
      [2, 2],
      [3, 1],
      [5, 1],
    ] as const);
    for (let i = 0; i < count; i++) {
      const kind = rng.weighted(ALERTS.map((a) => [a, a.weight] as const));
      const started = now - rng.int(10, 30 * 24 * 60) * MINUTE;
      const ageDays = (now - started) / DAY;
      const status =
        ageDays > 3
          ? rng.pick(['RESOLVED', 'RESOLVED', 'DISMISSED', 'ACKNOWLEDGED'])
          : rng.pick(['ACTIVE', 'ACTIVE', 'ACKNOWLEDGED']);
      const id = uuidV5(`vehicle-alert:${d.id}:${i}`);
      push('fleet.vehicle_alerts', {
        id,
        organization_id: org.id,
        device_id: d.id,
        vehicle_id: d.current_vehicle_id,
        type: kind.type,
        severity: kind.severity,
        status,
        message: kind.message(rng),
        started_at: new Date(started),
        ended_at:
          status === 'RESOLVED' || status === 'DISMISSED'
            ? new Date(started + rng.int(5, 600) * MINUTE)
            : null,
        latitude: french ? 45.7 + rng.next() * 3 : 48.1 + rng.next() * 5.5,
        longitude: french ? 2.3 + rng.next() * 3 : 6.9 + rng.next() * 6.5,
        created_at: new Date(started),
        updated_at: new Date(started + rng.int(0, 600) * MINUTE),
      });
      if (rng.chance(0.25)) {
        push('fleet.vehicle_alert_feedbacks', {
          id: uuidV5(`alert-feedback:${id}`),
          alert_id: id,
          account_id: rng.pick(orgAccounts).id,
          status: rng.weighted([
            ['CONFIRMED', 5],
            ['FIXED', 3],
            ['FALSE_POSITIVE', 2],
            ['NOT_RELEVANT', 1],
          ] as const),
          language: orgAccounts[0]!.language,
          comment: rng.chance(0.5)
            ? rng.pick(
                french
                  ? ['Vu avec le conducteur', 'Reparation planifiee', 'Fausse alerte']
                  : ['Checked with the driver', 'Workshop booked', 'Sensor glitch'],
              )
            : null,
          created_at: new Date(started + rng.int(30, 2 * 24 * 60) * MINUTE),
        });
      }
    }
  }
}
