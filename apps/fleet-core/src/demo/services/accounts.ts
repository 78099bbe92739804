/** Services demo of accounts: roles and alert preferences, descriptions, drivers' licence classes. */
import { WORKSHOPS } from './catalogs';
import type { OrgContext } from './context';

/** Roles (members of the root group administer) and alert preferences of every account. */
export async function writeRoles(ctx: OrgContext): Promise<void> {
  const { trx, rng, orgAccounts, orgGroups, push, at } = ctx;
  const root = orgGroups.find((g) => g.hierarchy_level === 'COMPANY');
  const rootMembers = new Set<string>(
    root ? await trx('fleet.group_accounts').where('group_id', root.id).pluck('account_id') : [],
  );
  const managers = ctx.managers;
  // Members of the root group got their roles at onboarding; the first of them granted the others'.
  const admin = orgAccounts.find((a) => rootMembers.has(a.id))?.id ?? null;
  for (const a of orgAccounts) {
    const roles = rootMembers.has(a.id)
      ? ['ADMIN', 'FLEET_MANAGER', 'BILLING']
      : a.email.startsWith('dispatcher.')
        ? ['DISPATCHER']
        : a.email.startsWith('manager.')
          ? ['FLEET_MANAGER', 'WORKSHOP_MANAGER']
          : [rng.pick(['VIEWER', 'DISPATCHER', 'DRIVER'])];
    if (roles.includes('ADMIN') || roles.includes('FLEET_MANAGER')) managers.push(a.id);
    for (const role of roles)
      push('fleet.account_roles', {
        account_id: a.id,
        role,
        granted_at: at(rng.int(30, 700)),
        granted_by: rootMembers.has(a.id) ? null : admin,
      });
    push('fleet.account_alert_preferences', {
      account_id: a.id,
      channels: rng.chance(0.5) ? ['EMAIL', 'PUSH'] : rng.chance(0.5) ? ['EMAIL'] : ['SMS', 'PUSH'],
      minimum_severity: rng.pick(['INFO', 'WARNING', 'WARNING', 'CRITICAL']),
      digest: rng.pick(['NONE', 'NONE', 'DAILY', 'HOURLY', 'WEEKLY']),
      language: a.language,
      quiet_hours_start: rng.chance(0.6) ? '22:00' : null,
      quiet_hours_end: rng.chance(0.6) ? '06:00' : null,
      muted_types: rng.chance(0.3) ? ['EXCESSIVE_IDLING'] : [],
      updated_at: at(rng.int(1, 200)),
    });
  }
}

/** Descriptions of groups, vehicles, devices and managers. */
export function writeDescriptions(ctx: OrgContext): void {
  const { rng, org, french, orgGroups, orgVehicles, orgDevices, orgAccounts, managers, description } = ctx;
  orgGroups.forEach((g, i) => {
    description('GROUP', g.id, french ? 'Centre de cout' : 'Cost centre', `CC-${4000 + i}`, 'ERP');
    if (g.hierarchy_level === 'DEPOT')
      description('GROUP', g.id, french ? 'Horaires' : 'Opening hours', 'Mo-Fr 06:00-20:00');
  });
  orgVehicles.forEach((v, i) => {
    description(
      'VEHICLE',
      v.id,
      french ? 'Contrat de location' : 'Lease contract',
      `LC-${org.name.slice(0, 2).toUpperCase()}-${10000 + i}`,
      'IMPORT',
    );
    if (rng.chance(0.3))
      description('VEHICLE', v.id, french ? 'Carte carburant' : 'Fuel card', `FC-${rng.int(100000, 999999)}`);
  });
  for (const d of orgDevices) {
    if (rng.chance(0.3))
      description('DEVICE', d.id, french ? 'Installateur' : 'Installer', rng.pick(WORKSHOPS).name);
  }
  for (const a of orgAccounts)
    if (managers.includes(a.id))
      description(
        'ACCOUNT',
        a.id,
        french ? 'Service' : 'Department',
        french ? 'Exploitation' : 'Fleet operations',
      );
}

/** Drivers' licence classes (written last: the rows before keep their generated values). */
export function writeDriverLicences(ctx: OrgContext): void {
  const { french, org, orgDrivers: drivers, description } = ctx;
  drivers
    .filter((driver) => driver.organization_id === org.id)
    .forEach((driver, i) => {
      if (i % 3 === 0)
        description('DRIVER', driver.id, french ? 'Permis' : 'Licence class', i % 2 === 0 ? 'C1E' : 'CE');
    });
}
