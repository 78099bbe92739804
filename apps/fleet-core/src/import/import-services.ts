/**
 * Import of the `services` section of each organization (schema: dataset-services.ts):
 * `checkServices` lists every unknown reference, duplicate and inconsistent value with its JSON
 * path (nothing is written when there is any); `importServices` writes the rows inside the import
 * transaction, after the organization's accounts, groups, vehicles and devices.
 *
 * The alerts' feedbacks and the distributors' onboarding requests are checked on the raw input,
 * item by item, so that one malformed entry does not hide the problems of the others.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { z } from 'zod';
import { servicesSchema, type ServicesInput } from './dataset-services';
import type { Dataset } from './dataset';
import type { Plan } from './validate';
import { insertInBatches } from '../demo/write';

type Row = Record<string, unknown>;
type Raw = Record<string, unknown>;
const q = (s: string) => JSON.stringify(s);
const list = (v: unknown): Raw[] =>
  Array.isArray(v) ? (v.filter((x) => x && typeof x === 'object') as Raw[]) : [];
const str = (v: unknown) => (typeof v === 'string' ? v.trim() : undefined);
/** The elements of a raw array at their own indexes (a non-object element becomes {}). */
const rawItems = (v: unknown): Raw[] =>
  Array.isArray(v) ? v.map((x) => (x && typeof x === 'object' && !Array.isArray(x) ? (x as Raw) : {})) : [];
const ISO = z.iso.datetime({ offset: true });
const time = (v: unknown): number => (ISO.safeParse(v).success ? Date.parse(v as string) : NaN);
/** Nested lists checked on the raw input: left out when a section is parsed for its own checks. */
const NESTED: Partial<Record<keyof ServicesInput, string>> = {
  vehicleAlerts: 'feedbacks',
  distributors: 'requests',
};
const OPEN_REQUESTS = new Set(['PENDING', 'SCHEDULED', 'IN_PROGRESS']);

/**
 * Each section of a raw services object parsed on its own: a shape problem in one (reported by
 * the dataset schema) does not hide the reference problems of the others. A section that does
 * not parse is empty here; nested lists (feedbacks, requests) are checked from the raw input.
 */
function parsedSections(raw: Raw) {
  const section = <K extends keyof ServicesInput>(key: K): ServicesInput[K] => {
    const nested = NESTED[key];
    const value =
      nested && Array.isArray(raw[key])
        ? (raw[key] as unknown[]).map((item) =>
            item && typeof item === 'object' ? { ...item, [nested]: undefined } : item,
          )
        : raw[key];
    const parsed = servicesSchema.shape[key].safeParse(value);
    return (parsed.success ? parsed.data : []) as ServicesInput[K];
  };
  return {
    accountRoles: section('accountRoles'),
    descriptions: section('descriptions'),
    workshops: section('workshops'),
    driverServices: section('driverServices'),
    distributors: section('distributors'),
    clientIdentifications: section('clientIdentifications'),
    bookings: section('bookings'),
    campaigns: section('campaigns'),
    vehicleAlerts: section('vehicleAlerts'),
  };
}

type Sections = ReturnType<typeof parsedSections>;

/** What a services section may refer to in its organization (raw input, before it is validated). */
function knownReferences(org: Raw) {
  const accounts = new Set<string>();
  for (const a of list(org.accounts)) {
    if (str(a.email)) accounts.add(str(a.email)!.toLowerCase());
    if (str(a.id)) accounts.add(str(a.id)!.toLowerCase());
  }
  const groups = new Set(
    list(org.groups)
      .flatMap((g) => [str(g.label), str(g.id)?.toLowerCase()])
      .filter(Boolean),
  );
  const vehicles = new Set(
    list(org.vehicles)
      .flatMap((v) => [str(v.vin), str(v.plate), str(v.id)?.toLowerCase()])
      .filter(Boolean),
  );
  const devices = new Set(
    list(org.devices)
      .map((d) => str(d.id))
      .filter(Boolean),
  );
  // A driver is named by its id, idKey or label; a label two drivers share names neither.
  const driverRefs = new Map<string, Set<number>>();
  list(org.drivers).forEach((d, i) => {
    for (const ref of [str(d.id)?.toLowerCase(), str(d.idKey), str(d.label)])
      if (ref) driverRefs.set(ref, (driverRefs.get(ref) ?? new Set()).add(i));
  });
  return {
    account: (ref: string) => accounts.has(ref.toLowerCase()),
    group: (ref: string) => groups.has(ref) || groups.has(ref.toLowerCase()),
    vehicle: (ref: string) => vehicles.has(ref) || vehicles.has(ref.toLowerCase()),
    device: (ref: string) => devices.has(ref),
    driver: (ref: string) => (driverRefs.get(ref) ?? driverRefs.get(ref.toLowerCase()))?.size === 1,
  };
}

type Known = ReturnType<typeof knownReferences>;

/** How a services section's problems are written: under its path, one line each. */
function servicesReporter(path: string, problems: string[]) {
  return {
    path,
    problem: (at: string, message: string) => problems.push(`${path}.${at}: ${message}`),
    unknown: (at: string, what: string, ref: string) =>
      problems.push(`${path}.${at}: unknown ${what} ${q(ref)}`),
    /** Values of a list that repeat (any case), each named with where it first appeared. */
    duplicates(section: string, values: string[], what: string) {
      const seen = new Map<string, number>();
      values.forEach((value, i) => {
        const key = value.toLowerCase();
        if (seen.has(key)) {
          problems.push(
            `${path}.${section}[${i}]: duplicate ${what} ${q(value)} (also at ${path}.${section}[${seen.get(key)}])`,
          );
        } else seen.set(key, i);
      });
    },
  };
}

type Reporter = ReturnType<typeof servicesReporter>;

function checkRolesAndDescriptions(s: Sections, known: Known, report: Reporter): void {
  s.accountRoles.forEach((r, i) => {
    if (!known.account(r.account)) report.unknown(`accountRoles[${i}].account`, 'account', r.account);
    if (r.grantedBy && !known.account(r.grantedBy))
      report.unknown(`accountRoles[${i}].grantedBy`, 'account', r.grantedBy);
  });
  report.duplicates(
    'accountRoles',
    s.accountRoles.map((r) => r.account),
    'account',
  );
  const subjectKnown = {
    ACCOUNT: known.account,
    GROUP: known.group,
    DEVICE: known.device,
    VEHICLE: known.vehicle,
    DRIVER: known.driver,
  };
  s.descriptions.forEach(
    (d, i) =>
      subjectKnown[d.subject](d.of) || report.unknown(`descriptions[${i}].of`, d.subject.toLowerCase(), d.of),
  );
}

/** Workshops, and the driver services and distributors that name them. */
function checkWorkshops(s: Sections, hasWorkshop: (ref: string) => boolean, report: Reporter): void {
  report.duplicates(
    'workshops',
    s.workshops.map((w) => w.name),
    'workshop name',
  );
  s.driverServices.forEach((d, i) =>
    d.workshops.forEach(
      (w, j) => hasWorkshop(w) || report.unknown(`driverServices[${i}].workshops[${j}]`, 'workshop', w),
    ),
  );
  report.duplicates(
    'driverServices',
    s.driverServices.map((d) => d.label),
    'driver service label',
  );
  report.duplicates(
    'distributors',
    s.distributors.map((d) => d.label),
    'distributor label',
  );
  s.distributors.forEach(
    (d, i) =>
      d.workshop &&
      !hasWorkshop(d.workshop) &&
      report.unknown(`distributors[${i}].workshop`, 'workshop', d.workshop),
  );
}

function checkClientIdentifications(s: Sections, known: Known, report: Reporter): void {
  const distributors = new Set(s.distributors.map((d) => d.label.toLowerCase()));
  report.duplicates(
    'clientIdentifications',
    s.clientIdentifications.map((c) => c.code),
    'client identification code',
  );
  s.clientIdentifications.forEach((c, i) => {
    if (c.distributor && !distributors.has(c.distributor.toLowerCase()))
      report.unknown(`clientIdentifications[${i}].distributor`, 'distributor', c.distributor);
    if (c.defaultAccount && !known.account(c.defaultAccount))
      report.unknown(`clientIdentifications[${i}].defaultAccount`, 'account', c.defaultAccount);
    if (c.revoked && c.usable)
      report.problem(
        `clientIdentifications[${i}].usable`,
        'a revoked client identification cannot be usable',
      );
  });
}

function checkBookings(
  s: Sections,
  known: Known,
  hasWorkshop: (ref: string) => boolean,
  report: Reporter,
): void {
  s.bookings.forEach((b, i) => {
    if (!known.account(b.account)) report.unknown(`bookings[${i}].account`, 'account', b.account);
    if (b.vehicle && !known.vehicle(b.vehicle))
      report.unknown(`bookings[${i}].vehicle`, 'vehicle', b.vehicle);
    if (!hasWorkshop(b.workshop)) report.unknown(`bookings[${i}].workshop`, 'workshop', b.workshop);
  });
}

function checkCampaignsAndAlerts(s: Sections, known: Known, report: Reporter): void {
  s.campaigns.forEach((c, i) => {
    c.devices.forEach(
      (d, j) =>
        known.device(d.device) || report.unknown(`campaigns[${i}].devices[${j}].device`, 'device', d.device),
    );
    report.duplicates(
      `campaigns[${i}].devices`,
      c.devices.map((d) => d.device),
      'device',
    );
    if (c.archivedAt && c.createdAt && Date.parse(c.archivedAt) < Date.parse(c.createdAt)) {
      report.problem(`campaigns[${i}].archivedAt`, 'before createdAt');
    }
  });
  s.vehicleAlerts.forEach((a, i) => {
    if (!known.device(a.device)) report.unknown(`vehicleAlerts[${i}].device`, 'device', a.device);
    if (a.endedAt && Date.parse(a.endedAt) < Date.parse(a.startedAt))
      report.problem(`vehicleAlerts[${i}].endedAt`, 'before startedAt');
  });
}

/** Feedbacks of each alert: author of the organization, given once the alert was raised. */
function checkFeedbacks(raw: Raw, known: Known, report: Reporter): void {
  rawItems(raw.vehicleAlerts).forEach((a, i) =>
    rawItems(a.feedbacks).forEach((f, j) => {
      const at = `vehicleAlerts[${i}].feedbacks[${j}]`;
      const author = str(f.account);
      if (author && !known.account(author)) report.unknown(`${at}.account`, 'account', author);
      if (time(f.createdAt) < time(a.startedAt))
        report.problem(`${at}.createdAt`, `before the alert's startedAt (${String(a.startedAt)})`);
    }),
  );
}

/** One onboarding request of a distributor: its references, dates and status. */
function checkRequest(d: Raw, r: Raw, at: string, known: Known, report: Reporter): void {
  const fail = (field: string, message: string) => report.problem(field ? `${at}.${field}` : at, message);
  const device = str(r.device);
  if (device && !known.device(device)) report.unknown(`${at}.device`, 'device', device);
  const vehicle = str(r.vehicle);
  if (vehicle && !known.vehicle(vehicle)) report.unknown(`${at}.vehicle`, 'vehicle', vehicle);
  if (vehicle && (r.plate !== undefined || r.vin !== undefined))
    fail('vehicle', 'give either vehicle or plate/vin (plate and vin are copied from the vehicle)');
  const requested = time(r.requestedAt);
  for (const field of ['scheduledAt', 'completedAt'])
    if (time(r[field]) < requested) fail(field, `before requestedAt (${String(r.requestedAt)})`);
  const status = str(r.status);
  if (status === 'SCHEDULED' && r.scheduledAt === undefined)
    fail('scheduledAt', 'a SCHEDULED request needs scheduledAt');
  if (status === 'COMPLETED' && r.completedAt === undefined)
    fail('completedAt', 'a COMPLETED request needs completedAt');
  if (status && status !== 'COMPLETED' && r.completedAt !== undefined)
    fail('completedAt', `only a COMPLETED request has completedAt (this one is ${status})`);
  if (status && OPEN_REQUESTS.has(status) && d.isActive === false)
    fail('status', `distributor ${q(String(d.label))} is inactive: it cannot have ${status} requests`);
}

/** Reference checks of every organization's services section; problems are appended. */
export function checkServices(input: unknown, problems: string[]): void {
  const organizations = list((input as Raw | null)?.organizations);
  organizations.forEach((org, o) => {
    if (!org.services || typeof org.services !== 'object') return;
    const raw = org.services as Raw;
    const s = parsedSections(raw);
    const known = knownReferences(org);
    const report = servicesReporter(`organizations[${o}].services`, problems);
    const workshops = new Set(s.workshops.map((w) => w.name.toLowerCase()));
    const hasWorkshop = (ref: string) => workshops.has(ref.toLowerCase());
    checkRolesAndDescriptions(s, known, report);
    checkWorkshops(s, hasWorkshop, report);
    checkClientIdentifications(s, known, report);
    checkBookings(s, known, hasWorkshop, report);
    checkCampaignsAndAlerts(s, known, report);
    checkFeedbacks(raw, known, report);
    rawItems(raw.distributors).forEach((d, i) =>
      rawItems(d.requests).forEach((r, j) =>
        checkRequest(d, r, `distributors[${i}].requests[${j}]`, known, report),
      ),
    );
  });
}

type Organization = Dataset['organizations'][number];

/** What one organization's services rows are built with: its plan's references, and where rows go. */
interface OrgRows {
  org: Organization;
  plan: Plan['organizations'][number];
  now: Date;
  push(table: string, row: Row): void;
  /** The account id an e-mail or id names. */
  account(ref: string): string;
  accountInput(id: string): Organization['accounts'][number] | undefined;
  vehicleInput(id: string): Organization['vehicles'][number] | undefined;
}

function pushAccountRoles(o: OrgRows, s: ServicesInput): void {
  for (const r of s.accountRoles)
    for (const role of new Set(r.roles))
      o.push('fleet.account_roles', {
        account_id: o.account(r.account),
        role,
        granted_at: r.grantedAt ? new Date(r.grantedAt) : o.now,
        granted_by: r.grantedBy ? o.account(r.grantedBy) : null,
      });
}

function pushDescriptions(o: OrgRows, s: ServicesInput): void {
  const subjectId = {
    ACCOUNT: o.account,
    GROUP: (ref: string) => o.plan.resolveGroup(ref),
    DEVICE: (ref: string) => ref,
    VEHICLE: (ref: string) => o.plan.resolveVehicle(ref),
    DRIVER: (ref: string) => o.plan.resolveDriver(ref),
  };
  for (const d of s.descriptions) {
    o.push('fleet.descriptions', {
      id: randomUUID(),
      organization_id: o.plan.id,
      subject: d.subject,
      subject_id: subjectId[d.subject](d.of),
      label: d.label,
      value: d.value,
      source: d.source ?? 'IMPORT',
    });
  }
}

function pushAlertTemplates(o: OrgRows, s: ServicesInput): void {
  for (const t of s.alertTemplates) {
    const id = randomUUID();
    o.push('fleet.alert_templates', {
      id,
      organization_id: o.plan.id,
      name: t.name,
      version: t.version,
      content_type: t.contentType,
      default_context: JSON.stringify(t.defaultContext),
      locked: t.locked,
      channel_name: t.channelName,
      definition: t.definition,
    });
    for (const a of t.attachments)
      o.push('fleet.alert_attachments', {
        id: randomUUID(),
        template_id: id,
        filename: a.filename,
        content_type: a.contentType,
        byte_size: a.byteSize,
        url: a.url,
      });
  }
}

/** The organization's workshops; answers the id of a workshop by its name (any case). */
function pushWorkshops(o: OrgRows, s: ServicesInput): (name: string) => string {
  const workshopIds = new Map<string, string>();
  for (const w of s.workshops) {
    const id = randomUUID();
    workshopIds.set(w.name.toLowerCase(), id);
    o.push('fleet.workshops', {
      id,
      name: w.name,
      address: w.address ?? null,
      postal_code: w.postalCode ?? null,
      city: w.city,
      country_code: w.countryCode,
      phone: w.phone ?? null,
      email: w.email ?? null,
      website: w.website ?? null,
      latitude: w.latitude ?? null,
      longitude: w.longitude ?? null,
    });
    o.push('fleet.organization_workshops', { organization_id: o.plan.id, workshop_id: id });
  }
  return (name) => workshopIds.get(name.toLowerCase())!;
}

function pushDriverServices(o: OrgRows, s: ServicesInput, workshop: (name: string) => string): void {
  for (const d of s.driverServices) {
    const id = randomUUID();
    o.push('fleet.driver_services', {
      id,
      organization_id: o.plan.id,
      label: d.label,
      description: d.description ?? null,
    });
    for (const w of new Set(d.workshops.map(workshop)))
      o.push('fleet.driver_service_workshops', { driver_service_id: id, workshop_id: w });
  }
}

/** The id of a provider by its code: one already stored or written by this import, else a new row. */
function providerIdOf(
  o: OrgRows,
  provider: ServicesInput['distributors'][number]['provider'],
  ids: Map<string, string>,
) {
  if (!provider) return null;
  let id = ids.get(provider.code);
  if (id) return id;
  id = randomUUID();
  ids.set(provider.code, id);
  o.push('fleet.onboarding_providers', {
    id,
    code: provider.code,
    name: provider.name,
    website: provider.website ?? null,
    support_email: provider.supportEmail ?? null,
  });
  return id;
}

function pushOnboardingRequests(
  o: OrgRows,
  distributorId: string,
  requests: ServicesInput['distributors'][number]['requests'],
): void {
  for (const r of requests) {
    const vehicle = r.vehicle ? o.vehicleInput(o.plan.resolveVehicle(r.vehicle)) : undefined;
    o.push('fleet.onboarding_requests', {
      id: randomUUID(),
      distributor_id: distributorId,
      device_id: r.device ?? null,
      status: r.status,
      plate: r.plate ?? vehicle?.plate ?? null,
      vin: r.vin ?? vehicle?.vin ?? null,
      notes: r.notes ?? null,
      requested_at: new Date(r.requestedAt),
      scheduled_at: r.scheduledAt ? new Date(r.scheduledAt) : null,
      completed_at: r.completedAt ? new Date(r.completedAt) : null,
    });
  }
}

/** Distributors with their staff and requests; answers their ids by label (lower case). */
function pushDistributors(
  o: OrgRows,
  s: ServicesInput,
  workshop: (name: string) => string,
  providerIds: Map<string, string>,
): Map<string, string> {
  const distributorIds = new Map<string, string>();
  for (const d of s.distributors) {
    const id = randomUUID();
    distributorIds.set(d.label.toLowerCase(), id);
    o.push('fleet.onboarding_distributors', {
      id,
      organization_id: o.plan.id,
      label: d.label,
      provider_id: providerIdOf(o, d.provider, providerIds),
      is_active: d.isActive,
      workshop_id: d.workshop ? workshop(d.workshop) : null,
      provider_workshop_id: d.providerWorkshopId ?? null,
    });
    for (const m of d.staff)
      o.push('fleet.onboarding_staff', {
        id: randomUUID(),
        distributor_id: id,
        full_name: m.fullName,
        email: m.email ?? null,
        phone: m.phone ?? null,
        role: m.role,
        active: m.active,
      });
    pushOnboardingRequests(o, id, d.requests);
  }
  return distributorIds;
}

function pushClientIdentifications(o: OrgRows, s: ServicesInput, distributorIds: Map<string, string>): void {
  for (const c of s.clientIdentifications) {
    o.push('fleet.client_identifications', {
      id: randomUUID(),
      organization_id: o.plan.id,
      code: c.code,
      label: c.label,
      distributor_id: c.distributor ? distributorIds.get(c.distributor.toLowerCase()) : null,
      client_reference: c.clientReference ?? null,
      default_account_id: c.defaultAccount ? o.account(c.defaultAccount) : null,
      usable: c.usable,
      revoked: c.revoked,
    });
  }
}

/** Bookings, with the vehicle's and the user's details copied as the booking records them. */
function pushBookings(o: OrgRows, s: ServicesInput, workshop: (name: string) => string): void {
  for (const b of s.bookings) {
    const accountId = o.account(b.account);
    const user = o.accountInput(accountId);
    const vehicleId = b.vehicle ? o.plan.resolveVehicle(b.vehicle) : null;
    const vehicle = vehicleId ? o.vehicleInput(vehicleId) : undefined;
    const place = s.workshops.find((w) => w.name.toLowerCase() === b.workshop.toLowerCase());
    o.push('fleet.bookings', {
      id: randomUUID(),
      organization_id: o.plan.id,
      account_id: accountId,
      vehicle_id: vehicleId,
      workshop_id: workshop(b.workshop),
      plate_number: vehicle?.plate ?? null,
      booking_date: new Date(b.bookingDate),
      status: b.status,
      quotation_ids: b.quotationIds,
      vehicle_make: vehicle?.make ?? null,
      vehicle_model: vehicle?.model ?? null,
      vehicle_year: vehicle?.year != null ? String(vehicle.year) : null,
      vin: vehicle?.vin ?? null,
      city: place?.city ?? null,
      country: place?.countryCode ?? null,
      additional_information: b.additionalInformation ?? null,
      preferred_language: b.preferredLanguage ?? user?.language ?? null,
      contact_method: b.contactMethod ?? null,
      user_email: user?.email ?? null,
      user_name: user?.fullName ?? null,
      user_phone_number: user?.phone ?? null,
    });
  }
}

function pushCampaigns(o: OrgRows, s: ServicesInput): void {
  for (const c of s.campaigns) {
    const id = randomUUID();
    o.push('fleet.campaigns', {
      id,
      organization_id: o.plan.id,
      name: c.name,
      status: c.status,
      configurations: c.configurations,
      created_at: c.createdAt ? new Date(c.createdAt) : o.now,
      archived_at: c.archivedAt ? new Date(c.archivedAt) : null,
    });
    for (const d of c.devices)
      o.push('fleet.campaign_devices', {
        campaign_id: id,
        device_id: d.device,
        status: d.status,
        error_message: d.errorMessage ?? null,
      });
  }
}

/** Vehicle alerts (on the device's current vehicle) and their feedbacks. */
function pushVehicleAlerts(o: OrgRows, s: ServicesInput): void {
  const currentVehicleOf = new Map(
    o.org.devices
      .filter((d) => d.currentVehicle)
      .map((d) => [d.id, o.plan.resolveVehicle(d.currentVehicle!)]),
  );
  for (const a of s.vehicleAlerts) {
    const alertId = randomUUID();
    o.push('fleet.vehicle_alerts', {
      id: alertId,
      organization_id: o.plan.id,
      device_id: a.device,
      vehicle_id: currentVehicleOf.get(a.device) ?? null,
      type: a.type,
      severity: a.severity,
      status: a.status,
      message: a.message,
      started_at: new Date(a.startedAt),
      ended_at: a.endedAt ? new Date(a.endedAt) : null,
      latitude: a.latitude ?? null,
      longitude: a.longitude ?? null,
    });
    for (const f of a.feedbacks) {
      const authorId = f.account ? o.account(f.account) : null;
      o.push('fleet.vehicle_alert_feedbacks', {
        id: randomUUID(),
        alert_id: alertId,
        account_id: authorId,
        status: f.status,
        language: f.language ?? (authorId ? o.accountInput(authorId)?.language : undefined) ?? 'EN',
        comment: f.comment ?? null,
        // Default: the import time, never before the alert was raised.
        created_at: new Date(f.createdAt ?? Math.max(o.now.getTime(), Date.parse(a.startedAt))),
      });
    }
  }
}

/** Every services row of one organization, section by section. */
function pushServices(o: OrgRows, s: ServicesInput, providerIds: Map<string, string>): void {
  pushAccountRoles(o, s);
  pushDescriptions(o, s);
  pushAlertTemplates(o, s);
  const workshop = pushWorkshops(o, s);
  pushDriverServices(o, s, workshop);
  const distributorIds = pushDistributors(o, s, workshop, providerIds);
  pushClientIdentifications(o, s, distributorIds);
  pushBookings(o, s, workshop);
  pushCampaigns(o, s);
  pushVehicleAlerts(o, s);
}

/** Writes the services rows of every organization of a validated dataset; returns rows per table. */
export async function importServices(
  trx: Knex.Transaction,
  dataset: Dataset,
  plan: Plan,
  now = new Date(),
): Promise<Record<string, number>> {
  const rows: Record<string, Row[]> = {};
  const push = (table: string, row: Row) => (rows[table] ??= []).push(row);
  const existingProviders: Array<{ id: string; code: string }> = await trx(
    'fleet.onboarding_providers',
  ).select('id', 'code');
  const providerIds = new Map(existingProviders.map((p) => [p.code, p.id]));

  dataset.organizations.forEach((org, i) => {
    const s = (org as { services?: ServicesInput }).services;
    if (!s) return;
    const orgPlan = plan.organizations[i]!;
    const o: OrgRows = {
      org,
      plan: orgPlan,
      now,
      push,
      account: (ref) => orgPlan.resolveAccount(ref),
      accountInput: (id) => org.accounts[orgPlan.accountIds.indexOf(id)],
      vehicleInput: (id) => org.vehicles[orgPlan.vehicleIds.indexOf(id)],
    };
    pushServices(o, s, providerIds);
  });

  const order = [
    'fleet.onboarding_providers',
    'fleet.workshops',
    'fleet.organization_workshops',
    'fleet.account_roles',
    'fleet.descriptions',
    'fleet.alert_templates',
    'fleet.alert_attachments',
    'fleet.driver_services',
    'fleet.driver_service_workshops',
    'fleet.onboarding_distributors',
    'fleet.onboarding_staff',
    'fleet.onboarding_requests',
    'fleet.client_identifications',
    'fleet.bookings',
    'fleet.campaigns',
    'fleet.campaign_devices',
    'fleet.vehicle_alerts',
    'fleet.vehicle_alert_feedbacks',
  ];
  const counts: Record<string, number> = {};
  for (const table of order) counts[table] = await insertInBatches(trx, table, rows[table] ?? []);
  return counts;
}
