/**
 * The DVIR demo: for every vehicle of the demo fleet (read through fleet-core's contract views),
 * about two and a half months of daily pre-trip and post-trip reports and weekly periodic ones,
 * taken against template versions that change over time, in each organization's language, with
 * defects in every state (draft, open, in repair, resolved in a later report, by a fleet manager
 * or by a mechanic, not needing repair) and real small images (walkarounds, defect photos,
 * signatures) stored through the storage interface. Everything goes through the domain rules
 * (src/domain/rules.ts). Deterministic for a given `now` (seeded PRNG). A large fleet (`npm run
 * seed -- --scale N`) gets a shorter history (historyDays), and its reports are written in
 * batches, so the seed's memory stays flat.
 */
import type { Knex } from 'knex';
import type { DemoDataContext, DemoSeedResult } from '@fleetgraph/subgraph-kit';
import { loadDvirConfig } from '../config';
import { fileServiceFor } from '../data/files/index';
import {
  buildReport,
  resolveDefect,
  type AnswerInput,
  type FileInput,
  type ReportRows,
  type Row,
  type TemplateInput,
} from '../domain/rules';
import { writeReports, writeTemplates, type FileStore } from '../domain/write';
import type { StoredFile } from '../data/files/service';
import { CATALOG, itemTranslations, type CatalogItem } from './catalog';
import { demoImages } from './images';

export const dvirSeeded = async (knex: Knex) => Boolean(await knex('dvir.inspection_reports').first('id'));

const DAY = 86_400_000;
const HOUR = 3_600_000;
export const DEMO_DAYS = 75;
/**
 * Vehicle-days of history the demo writes at most (~16 KB of rows and ~2 reports each): 75 days
 * for up to 2,000 vehicles (the demo fleet has 75), fewer for a larger fleet, never under a week
 * (the periodic inspections are weekly): 20 days at --scale 100, 7 at --scale 1334.
 */
const HISTORY_BUDGET = 150_000;

export const historyDays = (vehicles: number) =>
  Math.max(7, Math.min(DEMO_DAYS, Math.floor(HISTORY_BUDGET / Math.max(1, vehicles))));

/** mulberry32: a small deterministic PRNG. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const hex = () =>
    Math.floor(next() * 0x100000000)
      .toString(16)
      .padStart(8, '0');
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!,
    uuid: () => {
      const h = hex() + hex() + hex() + hex();
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
    },
  };
}

const DEFECT_COMMENTS: Record<string, string[]> = {
  EXTERIOR: ['Scratch on the rear door', 'Left mirror cracked', 'Dent on the side panel'],
  LIGHTS: ['Right brake light out', 'Left indicator flickers', 'Low beam dim'],
  TIRES: ['Front left tire worn to the limit', 'Cut on the sidewall', 'Low pressure rear right'],
  BRAKES: ['Parking brake does not hold', 'Brake warning light on', 'Squealing when braking'],
  ENGINE: ['Oil leak under the engine', 'Coolant level low', 'Washer fluid empty'],
  INTERIOR: ['Driver seat belt does not latch', 'Horn not working', 'Wiper blade torn'],
  SAFETY_EQUIPMENT: ['Fire extinguisher expired', 'First-aid kit missing', 'No warning triangle'],
  DOCUMENTS: ['Insurance certificate missing', 'Registration copy missing'],
};

interface Vehicle {
  id: string;
  organization_id: string;
  vehicle_type: string | null;
  odometer_km: number | null;
  group_id: string | null;
  driver_id: string | null;
  lat: number | null;
  lng: number | null;
}

interface DemoTemplate {
  input: TemplateInput;
  keys: string[];
}

function template(
  id: string,
  version: number,
  org: string | null,
  group: string | null,
  name: Record<string, string>,
  lang: string,
  items: CatalogItem[],
  createdAt: Date,
  rng: ReturnType<typeof prng>,
  options: { signatureRequired?: boolean; vehicleType?: string } = {},
): DemoTemplate {
  return {
    keys: items.map((i) => i.key),
    input: {
      id,
      version,
      organizationId: org,
      groupId: group,
      name: name[lang] ?? name.EN!,
      description: `${name.EN} (${lang})`,
      vehicleType: options.vehicleType ?? 'VAN',
      signatureRequired: options.signatureRequired ?? true,
      defaultLanguage: lang,
      translations: Object.fromEntries(
        Object.entries(name)
          .filter(([l]) => l !== lang)
          .map(([l, n]) => [l, { name: n }]),
      ),
      createdAt,
      items: items.map((item, i) => ({
        id: rng.uuid(),
        orderPosition: i + 1,
        category: item.category,
        name: item.text[lang]![0],
        description: item.text[lang]![1],
        required: item.required ?? true,
        commentRequirement: true,
        commentOnSuccess: item.commentOnSuccess ?? false,
        photoCountMin: item.photoCountMin ?? 0,
        photoCountMax: 3,
        translations: itemTranslations(item, lang),
      })),
    },
  };
}

const DAILY_NAMES = {
  EN: 'Daily vehicle check',
  FR: 'Contrôle quotidien du véhicule',
  DE: 'Tägliche Fahrzeugkontrolle',
  ES: 'Control diario del vehículo',
  IT: 'Controllo giornaliero del veicolo',
  NL: 'Dagelijkse voertuigcontrole',
};
const PERIODIC_NAMES = {
  EN: 'Periodic safety inspection',
  FR: 'Inspection de sécurité périodique',
  DE: 'Regelmäßige Sicherheitsprüfung',
  ES: 'Inspección de seguridad periódica',
  IT: 'Ispezione di sicurezza periodica',
  NL: 'Periodieke veiligheidsinspectie',
};
const DEPOT_NAMES = {
  EN: 'Depot departure check',
  FR: 'Contrôle de départ du dépôt',
  DE: 'Abfahrtskontrolle Depot',
  ES: 'Control de salida del depósito',
  IT: 'Controllo di partenza dal deposito',
  NL: 'Vertrekcontrole depot',
};

/** Reports are written every this many (in the one transaction), so memory stays flat at any scale. */
const FLUSH_REPORTS = 5_000;

type Rng = ReturnType<typeof prng>;
type Images = Awaited<ReturnType<typeof demoImages>>;

/**
 * The demo fleet as fleet-core's contract shows it: vehicles, and per organization its drivers (by
 * id) and the account that resolves defects (the first by email).
 */
interface DemoFleet {
  vehicles: Vehicle[];
  orgs: string[];
  driversOf: Map<string, string[]>;
  managerOf: Map<string, string>;
}

/** The templates the demo inspects against (see demoTemplates). */
interface DemoTemplates {
  all: DemoTemplate[];
  periodic: DemoTemplate;
  daily: Map<string, DemoTemplate[]>;
  depot: Map<string, { group: string; t: DemoTemplate }>;
}

/** What every vehicle's history is built from. */
interface HistoryContext {
  roster: DemoFleet;
  templates: DemoTemplates;
  images: Images;
  today: Date;
  days: number;
  rng: Rng;
}

type DefectPlan = 'LATER' | 'MECHANIC' | 'USER' | 'NOT_NEEDED' | 'KEEP';
/** A vehicle's open defects by item key: the defect row and how and when it will be closed. */
type OpenDefects = Map<string, { defect: Row; plan: DefectPlan; at: Date }>;

export async function seedDvirDemo(
  knex: Knex,
  context: DemoDataContext,
  files: FileStore = fileServiceFor(loadDvirConfig(process.env)),
  options: { flushReports?: number } = {},
): Promise<DemoSeedResult> {
  const flushReports = options.flushReports ?? FLUSH_REPORTS;
  const started = Date.now();
  const roster = await loadDemoFleet(knex);
  if (roster.vehicles.length === 0) return { counts: {} };
  const today = new Date(Math.floor(context.now.getTime() / DAY) * DAY);
  const days = historyDays(roster.vehicles.length);
  const rng = prng(20261123);
  const images = await demoImages();
  const templates = demoTemplates(roster, today, days, rng);
  const history: HistoryContext = { roster, templates, images, today, days, rng };
  const counts = { reports: 0, answers: 0, defects: 0, attachments: 0 };

  await knex.transaction(async (trx) => {
    await writeTemplates(
      trx,
      templates.all.map((t) => t.input),
    );
    let pending: ReportRows[] = [];
    const stored = new Map<Uint8Array, StoredFile>();
    const flush = async (done: number) => {
      await writeReports(trx, files, pending, stored);
      addCounts(counts, pending);
      pending = [];
      if (context.progress)
        context.log(`dvir: ${counts.reports} reports for ${done}/${roster.vehicles.length} vehicles`);
    };
    for (const [vi, vehicle] of roster.vehicles.entries()) {
      // A vehicle's defects are closed by its later reports: its history is built whole, then queued.
      pending.push(...vehicleReports(history, vehicle, vi));
      if (pending.length >= flushReports) await flush(vi + 1);
    }
    if (pending.length > 0) await flush(roster.vehicles.length);
  });
  context.log(
    `dvir: ${counts.reports} reports, ${counts.answers} answers, ${counts.defects} defects, ${counts.attachments} attachments for ${roster.vehicles.length} vehicles in ${Date.now() - started} ms`,
  );
  return { counts };
}

function addCounts(
  counts: Record<'reports' | 'answers' | 'defects' | 'attachments', number>,
  rows: ReportRows[],
) {
  for (const r of rows) {
    counts.reports += 1;
    counts.answers += r.answers.length;
    counts.defects += r.defects.length;
    counts.attachments += r.files.length;
  }
}

/**
 * The demo vehicles with a group, a driver and a place each. A vehicle's drivers are read by
 * `current_vehicle_id` first (`offset 0` keeps that subquery): flattened, a plan without statistics
 * walks every driver in id order for each vehicle that has none, quadratic in the fleet.
 */
async function loadDemoFleet(knex: Knex): Promise<DemoFleet> {
  const vehicles: Vehicle[] = (
    await knex.raw(`
      select v.id, v.organization_id, v.vehicle_type, v.odometer_km,
             (select gv.group_id from fleet_contract.group_vehicles_v1 gv where gv.vehicle_id = v.id order by gv.group_id limit 1) as group_id,
             (select x.id from (select d.id from fleet_contract.drivers_v1 d where d.current_vehicle_id = v.id offset 0) x
               order by x.id limit 1) as driver_id,
             p.start_latitude as lat, p.start_longitude as lng
        from fleet_contract.vehicles_v1 v
        left join lateral (select t.start_latitude, t.start_longitude from fleet_contract.trips_v1 t
                            where t.vehicle_id = v.id order by t.started_at desc limit 1) p on true
       order by v.organization_id, v.id`)
  ).rows;
  const orgs = [...new Set(vehicles.map((v) => v.organization_id))];
  const roster: DemoFleet = { vehicles, orgs, driversOf: new Map(), managerOf: new Map() };
  if (orgs.length === 0) return roster;
  const accounts: Array<{ id: string; organization_id: string }> = await knex('fleet_contract.accounts_v1')
    .select('id', 'organization_id')
    .whereIn('organization_id', orgs)
    .orderBy('email');
  for (const a of accounts)
    if (!roster.managerOf.has(a.organization_id)) roster.managerOf.set(a.organization_id, a.id);
  const drivers: Array<{ id: string; organization_id: string }> = await knex('fleet_contract.drivers_v1')
    .select('id', 'organization_id')
    .whereIn('organization_id', orgs)
    .orderBy('id');
  for (const d of drivers) {
    const list = roster.driversOf.get(d.organization_id);
    if (list) list.push(d.id);
    else roster.driversOf.set(d.organization_id, [d.id]);
  }
  return roster;
}

/**
 * One global periodic inspection; per organization a daily check in three versions (in its
 * language) and a depot check for its largest group.
 */
function demoTemplates(roster: DemoFleet, today: Date, days: number, rng: Rng): DemoTemplates {
  const ago = (n: number) => new Date(today.getTime() - n * DAY);
  const periodic = template(rng.uuid(), 1, null, null, PERIODIC_NAMES, 'EN', CATALOG, ago(days + 30), rng, {
    signatureRequired: true,
    vehicleType: 'OTHER',
  });
  const result: DemoTemplates = { all: [periodic], periodic, daily: new Map(), depot: new Map() };
  roster.orgs.forEach((org, i) => {
    const lang = ['EN', 'FR', 'DE'][i % 3]!;
    const versions = dailyVersions(org, lang, days, ago, rng);
    result.daily.set(org, versions);
    result.all.push(...versions);
    const group = largestGroup(roster.vehicles, org);
    if (group) {
      const t = template(rng.uuid(), 1, org, group, DEPOT_NAMES, 'DE', CATALOG.slice(5), ago(days + 5), rng, {
        signatureRequired: false,
      });
      result.depot.set(org, { group, t });
      result.all.push(t);
    }
  });
  return result;
}

/** The daily check's three versions: 6 items, then 7, then the whole catalog with a renamed first item. */
function dailyVersions(org: string, lang: string, days: number, ago: (n: number) => Date, rng: Rng) {
  const id = rng.uuid();
  const versions = [
    template(id, 1, org, null, DAILY_NAMES, lang, CATALOG.slice(0, 6), ago(days + 10), rng),
    template(id, 2, org, null, DAILY_NAMES, lang, CATALOG.slice(0, 7), ago(Math.round(days * 0.6)), rng),
    template(id, 3, org, null, DAILY_NAMES, lang, CATALOG, ago(Math.round(days * 0.25)), rng),
  ];
  // Version 3 renames the first item: older answers keep the old name.
  versions[2]!.input.items[0]!.name = `${versions[2]!.input.items[0]!.name} (incl. windshield)`;
  return versions;
}

/** The organization's group holding the most vehicles (ties: the smallest id). */
function largestGroup(vehicles: Vehicle[], org: string): string | undefined {
  const groupCounts = new Map<string, number>();
  for (const v of vehicles)
    if (v.organization_id === org && v.group_id)
      groupCounts.set(v.group_id, (groupCounts.get(v.group_id) ?? 0) + 1);
  return [...groupCounts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
}

/**
 * A vehicle's reports, oldest first: on ~88 % of the days a pre-trip and a post-trip report (one
 * vehicle in five is mid-inspection today), and on Mondays a periodic one (the depot check for the
 * depot's vehicles). Defects found are closed by later reports, a mechanic or a fleet manager.
 */
function vehicleReports(ctx: HistoryContext, vehicle: Vehicle, vi: number): ReportRows[] {
  const { roster, templates, today, days, rng } = ctx;
  const org = vehicle.organization_id;
  const drivers = roster.driversOf.get(org) ?? [];
  const vehicleState: VehicleState = {
    vehicle,
    vi,
    driverId: vehicle.driver_id ?? (drivers.length ? drivers[vi % drivers.length]! : null),
    manager: roster.managerOf.get(org),
    open: new Map(),
    odometer: Math.max(1000, (vehicle.odometer_km ?? 40000) - days * 120),
    reports: [],
  };
  const versions = templates.daily.get(org)!;
  const take = (t: DemoTemplate, type: string, at: Date, inProgress: boolean) =>
    takeInspection(ctx, vehicleState, { t, type, at, inProgress });
  for (let d = days - 1; d >= 0; d--) {
    const day = today.getTime() - d * DAY;
    if (rng.next() < 0.12) continue; // not driven that day
    const t = versions.filter((v) => v.input.createdAt.getTime() <= day).at(-1) ?? versions[0]!;
    const lastToday = d === 0 && vi % 5 === 0;
    take(t, 'PRE_TRIP', new Date(day + 6 * HOUR + rng.int(0, 90) * 60_000), lastToday);
    if (lastToday) continue;
    if (d > 0 || rng.next() < 0.3)
      take(t, 'POST_TRIP', new Date(day + 17 * HOUR + rng.int(0, 120) * 60_000), false);
    if (new Date(day).getUTCDay() === 1) {
      const local = templates.depot.get(org);
      const periodic = local && local.group === vehicle.group_id ? local.t : templates.periodic;
      take(periodic, 'PERIODIC', new Date(day + 9 * HOUR), false);
    }
  }
  return vehicleState.reports;
}

/** One vehicle's running state while its history is built. */
interface VehicleState {
  vehicle: Vehicle;
  vi: number;
  driverId: string | null;
  manager: string | undefined;
  open: OpenDefects;
  odometer: number;
  reports: ReportRows[];
}

interface Inspection {
  t: DemoTemplate;
  type: string;
  at: Date;
  inProgress: boolean;
}

/** One report through the domain rules: closes what was due, answers every item, plans the new defects. */
function takeInspection(ctx: HistoryContext, state: VehicleState, inspection: Inspection): void {
  const { t, type, at, inProgress } = inspection;
  const { rng, images, today } = ctx;
  const { vehicle } = state;
  closeDueDefects(state, at, rng);
  const reportId = rng.uuid();
  const photoOf = (kind: string, bytes: Uint8Array, filename: string): FileInput => ({
    id: rng.uuid(),
    kind,
    filename,
    bytes,
  });
  const { answers, fixedLater } = answerItems(ctx, state, inspection, photoOf);
  const signed = !inProgress && (t.input.signatureRequired ?? true);
  const completedAt = new Date(at.getTime() + rng.int(4, 15) * 60_000);
  state.odometer += rng.int(40, 220);
  const out = buildReport(
    {
      id: reportId,
      organizationId: vehicle.organization_id,
      vehicleId: vehicle.id,
      groupId: vehicle.group_id,
      driverId: state.driverId,
      templateId: t.input.id,
      templateVersion: t.input.version,
      vehicleType: vehicle.vehicle_type ?? 'VAN',
      workflowStatus: inProgress
        ? 'IN_PROGRESS'
        : at.getTime() < today.getTime() - 7 * DAY
          ? 'REVIEWED'
          : 'SUBMITTED',
      inspectionType: type,
      odometer: state.odometer,
      fuelLevel: rng.int(15, 100),
      driverSignatureDate: signed ? completedAt : null,
      locationLat: vehicle.lat != null ? vehicle.lat + (rng.next() - 0.5) * 0.01 : null,
      locationLng: vehicle.lng != null ? vehicle.lng + (rng.next() - 0.5) * 0.01 : null,
      locationAddress:
        vehicle.lat != null ? `Near ${vehicle.lat.toFixed(3)}, ${vehicle.lng!.toFixed(3)}` : 'Depot yard',
      startedAt: at,
      completedAt: inProgress ? null : completedAt,
      answers,
      attachments: [
        ...(type === 'PRE_TRIP'
          ? [photoOf('WALKAROUND', images.walkarounds[state.vi % 4]!, 'walkaround.jpg')]
          : []),
        ...(signed ? [photoOf('SIGNATURE', images.signature, 'signature.png')] : []),
      ],
    },
    t.input,
    'demo',
    rng.uuid,
  );
  if (!out.rows) throw new Error(`dvir demo: ${out.problems.join('; ')}`);
  for (const defect of fixedLater)
    resolveDefect(defect, { by: 'LATER_REPORT', reportId, at: completedAt }, 'demo');
  planNewDefects(ctx, state, inspection, out.rows.defects);
  state.reports.push(out.rows);
}

/** Closes the open defects planned to close (by a mechanic or a fleet manager) before `at`. */
function closeDueDefects(state: VehicleState, at: Date, rng: Rng): void {
  for (const [key, o] of state.open) {
    if (o.plan === 'LATER' || o.plan === 'KEEP' || o.at > at) continue;
    const resolution =
      o.plan === 'MECHANIC'
        ? ({
            by: 'MECHANIC',
            mechanicName: rng.pick(['Garage Martin', 'Autohaus Weber', 'QuickFix Fleet']),
            at: o.at,
          } as const)
        : ({
            by: 'USER',
            userId: state.manager!,
            at: o.at,
            status: o.plan === 'NOT_NEEDED' ? 'NOT_NEEDING_REPAIR' : 'RESOLVED',
          } as const);
    if (resolution.by === 'USER' && !state.manager) continue;
    resolveDefect(o.defect, resolution, 'demo');
    state.open.delete(key);
  }
}

/**
 * The answers to a template's items (an inspection in progress has answered three): a defect
 * planned to be fixed by a later report is checked again, one awaiting repair is not applicable,
 * otherwise ~1.2 % of answers find a new defect (with photos).
 */
function answerItems(
  ctx: HistoryContext,
  state: VehicleState,
  { t, at, inProgress }: Inspection,
  photoOf: (kind: string, bytes: Uint8Array, filename: string) => FileInput,
): { answers: AnswerInput[]; fixedLater: Row[] } {
  const { rng, images } = ctx;
  const fixedLater: Row[] = [];
  const answers: AnswerInput[] = [];
  t.input.items.forEach((item, i) => {
    const key = t.keys[i]!;
    if (inProgress && i >= 3) return;
    const known = state.open.get(key);
    let result = 'OK';
    let comment: string | null = null;
    if (known && known.plan === 'LATER' && known.at <= at) {
      fixedLater.push(known.defect);
      state.open.delete(key);
      comment = 'Repaired, checked again';
    } else if (known) {
      result = 'NOT_APPLICABLE';
      comment = 'Defect already reported, awaiting repair';
    } else {
      const r = rng.next();
      if (r < (inProgress && i === 0 ? 1 : 0.012)) result = 'DEFECT';
      else if (r > 0.995 && !item.required) result = 'NOT_APPLICABLE';
    }
    if (result === 'DEFECT') comment = rng.pick(DEFECT_COMMENTS[item.category] ?? ['Damaged']);
    if (result === 'OK' && item.commentOnSuccess && !comment) comment = 'Checked';
    const photos =
      result === 'DEFECT'
        ? Array.from({ length: Math.max(item.photoCountMin ?? 0, rng.int(0, 2)) }, () =>
            photoOf('PHOTO', rng.pick(images.defects), `defect-${key}.jpg`),
          )
        : [];
    answers.push({ id: rng.uuid(), itemId: item.id, result, comment, photos });
  });
  return { answers, fixedLater };
}

/** How each new defect closes: older ones are closed, the last days' stay open or in repair. */
function planNewDefects(
  ctx: HistoryContext,
  state: VehicleState,
  { t, at, inProgress }: Inspection,
  defects: Row[],
) {
  const { rng, today } = ctx;
  for (const defect of defects) {
    const key = t.keys[t.input.items.findIndex((it) => it.id === defect.inspection_item_id)]!;
    const age = today.getTime() + DAY - at.getTime();
    const r = rng.next();
    const plan: DefectPlan =
      inProgress || age < 4 * DAY
        ? 'KEEP'
        : r < 0.4
          ? 'LATER'
          : r < 0.65
            ? 'MECHANIC'
            : r < 0.85
              ? 'USER'
              : 'NOT_NEEDED';
    if (plan === 'KEEP' && !inProgress && r < 0.5) defect.status = 'IN_REPAIR';
    state.open.set(key, { defect, plan, at: new Date(at.getTime() + rng.int(3, 30) * HOUR) });
  }
}
