/** Services demo of onboarding: distributors and their staff, installation requests, client identifications. */
import { uuidV5 } from '../ids';
import { DAY, type OrgContext } from './context';

/** Onboarding distributors of the organization's country, with their staff. */
export function writeDistributors(ctx: OrgContext): void {
  const { rng, org, french, orgWorkshops, push, at } = ctx;
  const distributorIds = ctx.distributorIds;
  const distributorPlan = french
    ? [
        ['NORAUTO', 'Norauto Lyon Gerland', true],
        ['SPEEDY', 'Speedy Paris 19', true],
      ]
    : [
        ['BOSCH_CS', 'Bosch Car Service Hamburg', true],
        ['EUROMASTER', 'Euromaster Berlin', true],
        ['NORAUTO', 'Norauto Koeln', false],
      ];
  distributorPlan.forEach(([code, label, active], i) => {
    const id = uuidV5(`distributor:${org.id}:${label}`);
    distributorIds.push(id);
    push('fleet.onboarding_distributors', {
      id,
      organization_id: org.id,
      label,
      provider_id: uuidV5(`provider:${code}`),
      is_active: active,
      workshop_id: orgWorkshops[i % orgWorkshops.length],
      provider_workshop_id: `${code}-${String(100 + i)}`,
      created_at: at(rng.int(300, 800)),
    });
    const staffNames = french
      ? ['Julie Martin', 'Karim Benali', 'Sophie Bernard', 'Hugo Petit']
      : ['Klaus Weber', 'Miriam Koch', 'Ali Yilmaz', 'Petra Schulz', 'Jan Hoffmann'];
    staffNames.slice(0, 3 + (i % 2)).forEach((name, s) =>
      push('fleet.onboarding_staff', {
        id: uuidV5(`onboarding-staff:${id}:${name}`),
        distributor_id: id,
        full_name: name,
        email: `${name.toLowerCase().replace(/\s+/g, '.')}@${String(code).toLowerCase()}.example`,
        phone: rng.chance(0.7)
          ? french
            ? `+336${rng.int(10000000, 99999999)}`
            : `+49160${rng.int(1000000, 9999999)}`
          : null,
        role: s === 0 ? 'MANAGER' : rng.pick(['TECHNICIAN', 'TECHNICIAN', 'SALES', 'SUPPORT']),
        active: rng.chance(0.9),
        created_at: at(rng.int(30, 600)),
      }),
    );
  });
}

/** Completed requests of onboarded devices, and three open ones. */
export function writeOnboardingRequests(ctx: OrgContext): void {
  const { rng, org, now, orgDevices, orgVehicles, vehicleById, distributorIds, push } = ctx;
  const activeDistributors = distributorIds.slice(0, 2);
  for (const d of orgDevices) {
    if (!d.onboarded || !rng.chance(0.5)) continue;
    const requested = d.created_at.getTime() - rng.int(3, 20) * DAY;
    const vehicle = d.current_vehicle_id ? vehicleById.get(d.current_vehicle_id) : undefined;
    push('fleet.onboarding_requests', {
      id: uuidV5(`onboarding-request:${d.id}`),
      distributor_id: rng.pick(activeDistributors),
      device_id: d.id,
      status: 'COMPLETED',
      plate: vehicle?.plate ?? null,
      vin: vehicle?.vin ?? null,
      notes: rng.pick([null, 'Installed behind the glove box', 'OBD extension cable used']),
      requested_at: new Date(requested),
      scheduled_at: new Date(requested + 2 * DAY),
      completed_at: new Date(d.created_at),
    });
  }
  for (let i = 0; i < 3; i++) {
    const requested = now - rng.int(1, 10) * DAY;
    push('fleet.onboarding_requests', {
      id: uuidV5(`onboarding-request:${org.id}:open:${i}`),
      distributor_id: rng.pick(activeDistributors),
      device_id: null,
      status: ['PENDING', 'SCHEDULED', 'CANCELLED'][i],
      plate: orgVehicles[i]?.plate ?? null,
      vin: null,
      notes: null,
      requested_at: new Date(requested),
      scheduled_at: i === 1 ? new Date(now + rng.int(1, 7) * DAY) : null,
      completed_at: null,
    });
  }
}

/** Client identifications (one revoked), by distributor. */
export function writeClientIdentifications(ctx: OrgContext): void {
  const { rng, org, orgDevices, orgGroups, orgAccounts, distributorIds, push, at } = ctx;
  const clientCount = 3 + Math.floor(orgDevices.length / 100);
  for (let i = 0; i < clientCount; i++) {
    const revoked = i === 1;
    push('fleet.client_identifications', {
      id: uuidV5(`client-identification:${org.id}:${i}`),
      organization_id: org.id,
      code: `${org.name.slice(0, 3).toUpperCase()}-${String(i + 1).padStart(4, '0')}`,
      label: `${org.name} ${orgGroups[i % orgGroups.length]?.label ?? 'fleet'}`,
      distributor_id: i === 2 ? null : distributorIds[i % distributorIds.length],
      client_reference: `C-${rng.int(10000, 99999)}`,
      default_account_id: orgAccounts[i % orgAccounts.length]!.id,
      usable: !revoked && rng.chance(0.9),
      revoked,
      created_at: at(rng.int(60, 700)),
      updated_at: at(rng.int(0, 60)),
    });
  }
}
