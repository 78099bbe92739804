/**
 * The DVIR demo: for every vehicle of the demo fleet (read through fleet-core's contract views),
 * about two and a half months of daily pre-trip and post-trip reports and weekly periodic ones,
 * taken against template versions that change over time, in each organization's language, with
 * defects in every state (draft, open, in repair, resolved in a later report, by a fleet manager
 * or by a mechanic, not needing repair) and real small images (walkarounds, defect photos,
 * signatures) stored through the storage interface. Everything goes through the domain rules
 * (src/domain/rules.ts). Deterministic for a given `now` (seeded PRNG).
 */
import type { Knex } from 'knex';
import type { DemoDataContext, DemoSeedResult } from '@fleetgraph/subgraph-kit';
import { loadDvirConfig } from '../config';
import { fileServiceFor } from '../files/index';
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
import { CATALOG, itemTranslations, type CatalogItem } from './catalog';
import { demoImages } from './images';

export const dvirSeeded = async (knex: Knex) => Boolean(await knex('dvir.inspection_reports').first('id'));

const DAY = 86_400_000;
const HOUR = 3_600_000;
export const DEMO_DAYS = 75;

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

export async function seedDvirDemo(
  knex: Knex,
  context: DemoDataContext,
  files: FileStore = fileServiceFor(loadDvirConfig(process.env)),
): Promise<DemoSeedResult> {
  const started = Date.now();
  const today = new Date(Math.floor(context.now.getTime() / DAY) * DAY);
  const days = Math.max(7, Math.round(DEMO_DAYS));
  const rng = prng(20261123);
  const vehicles: Vehicle[] = (
    await knex.raw(`
      select v.id, v.organization_id, v.vehicle_type, v.odometer_km,
             (select gv.group_id from fleet_contract.group_vehicles_v1 gv where gv.vehicle_id = v.id order by gv.group_id limit 1) as group_id,
             (select d.id from fleet_contract.drivers_v1 d where d.current_vehicle_id = v.id order by d.id limit 1) as driver_id,
             p.start_latitude as lat, p.start_longitude as lng
        from fleet_contract.vehicles_v1 v
        left join lateral (select t.start_latitude, t.start_longitude from fleet_contract.trips_v1 t
                            where t.vehicle_id = v.id order by t.started_at desc limit 1) p on true
       order by v.organization_id, v.id`)
  ).rows;
  if (vehicles.length === 0) return { counts: {} };
  const orgs = [...new Set(vehicles.map((v) => v.organization_id))];
  const accounts: Array<{ id: string; organization_id: string }> = await knex('fleet_contract.accounts_v1')
    .select('id', 'organization_id')
    .whereIn('organization_id', orgs)
    .orderBy('email');
  const orgDrivers: Array<{ id: string; organization_id: string }> = await knex('fleet_contract.drivers_v1')
    .select('id', 'organization_id')
    .whereIn('organization_id', orgs)
    .orderBy('id');
  const images = await demoImages();

  // Templates: per organization a daily check in three versions and a depot check; one global periodic inspection.
  const templates: DemoTemplate[] = [];
  const periodic = template(
    rng.uuid(),
    1,
    null,
    null,
    PERIODIC_NAMES,
    'EN',
    CATALOG,
    new Date(today.getTime() - (days + 30) * DAY),
    rng,
    { signatureRequired: true, vehicleType: 'OTHER' },
  );
  templates.push(periodic);
  const daily = new Map<string, DemoTemplate[]>();
  const depot = new Map<string, { group: string; t: DemoTemplate }>();
  orgs.forEach((org, i) => {
    const lang = ['EN', 'FR', 'DE'][i % 3]!;
    const id = rng.uuid();
    const versions = [
      template(
        id,
        1,
        org,
        null,
        DAILY_NAMES,
        lang,
        CATALOG.slice(0, 6),
        new Date(today.getTime() - (days + 10) * DAY),
        rng,
      ),
      template(
        id,
        2,
        org,
        null,
        DAILY_NAMES,
        lang,
        CATALOG.slice(0, 7),
        new Date(today.getTime() - Math.round(days * 0.6) * DAY),
        rng,
      ),
      template(
        id,
        3,
        org,
        null,
        DAILY_NAMES,
        lang,
        CATALOG,
        new Date(today.getTime() - Math.round(days * 0.25) * DAY),
        rng,
      ),
    ];
    // Version 3 renames the first item: older answers keep the old name.
    versions[2]!.input.items[0]!.name = `${versions[2]!.input.items[0]!.name} (incl. windshield)`;
    daily.set(org, versions);
    templates.push(...versions);
    const groupCounts = new Map<string, number>();
    for (const v of vehicles)
      if (v.organization_id === org && v.group_id)
        groupCounts.set(v.group_id, (groupCounts.get(v.group_id) ?? 0) + 1);
    const top = [...groupCounts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
    if (top) {
      const t = template(
        rng.uuid(),
        1,
        org,
        top[0],
        DEPOT_NAMES,
        'DE',
        CATALOG.slice(5),
        new Date(today.getTime() - (days + 5) * DAY),
        rng,
        { signatureRequired: false },
      );
      depot.set(org, { group: top[0], t });
      templates.push(t);
    }
  });

  const built: ReportRows[] = [];
  const counts = { reports: 0, answers: 0, defects: 0, attachments: 0 };
  for (const [vi, vehicle] of vehicles.entries()) {
    const org = vehicle.organization_id;
    const drivers = orgDrivers.filter((d) => d.organization_id === org);
    const driverId = vehicle.driver_id ?? (drivers.length ? drivers[vi % drivers.length]!.id : null);
    const manager = accounts.find((a) => a.organization_id === org)?.id;
    const versions = daily.get(org)!;
    // open defects of this vehicle: item key -> defect row and how it will be closed
    const open = new Map<
      string,
      { defect: Row; plan: 'LATER' | 'MECHANIC' | 'USER' | 'NOT_NEEDED' | 'KEEP'; at: Date }
    >();
    let odometer = Math.max(1000, (vehicle.odometer_km ?? 40000) - days * 120);
    const photoOf = (kind: string, bytes: Uint8Array, filename: string): FileInput => ({
      id: rng.uuid(),
      kind,
      filename,
      bytes,
    });

    const take = (t: DemoTemplate, type: string, at: Date, inProgress: boolean) => {
      // Close what was planned to close before this inspection.
      for (const [key, o] of open) {
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
                userId: manager!,
                at: o.at,
                status: o.plan === 'NOT_NEEDED' ? 'NOT_NEEDING_REPAIR' : 'RESOLVED',
              } as const);
        if (resolution.by === 'USER' && !manager) continue;
        resolveDefect(o.defect, resolution, 'demo');
        open.delete(key);
      }
      const reportId = rng.uuid();
      const fixedLater: Row[] = [];
      const answers: AnswerInput[] = [];
      t.input.items.forEach((item, i) => {
        const key = t.keys[i]!;
        if (inProgress && i >= 3) return;
        const known = open.get(key);
        let result = 'OK';
        let comment: string | null = null;
        if (known && known.plan === 'LATER' && known.at <= at) {
          fixedLater.push(known.defect);
          open.delete(key);
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
      const signed = !inProgress && (t.input.signatureRequired ?? true);
      const completedAt = new Date(at.getTime() + rng.int(4, 15) * 60_000);
      odometer += rng.int(40, 220);
      const out = buildReport(
        {
          id: reportId,
          organizationId: org,
          vehicleId: vehicle.id,
          groupId: vehicle.group_id,
          driverId,
          templateId: t.input.id,
          templateVersion: t.input.version,
          vehicleType: vehicle.vehicle_type ?? 'VAN',
          workflowStatus: inProgress
            ? 'IN_PROGRESS'
            : at.getTime() < today.getTime() - 7 * DAY
              ? 'REVIEWED'
              : 'SUBMITTED',
          inspectionType: type,
          odometer,
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
              ? [photoOf('WALKAROUND', images.walkarounds[vi % 4]!, 'walkaround.jpg')]
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
      // Plan how each new defect closes: older ones are closed, the last days' stay open or in repair.
      for (const defect of out.rows.defects) {
        const key = t.keys[t.input.items.findIndex((it) => it.id === defect.inspection_item_id)]!;
        const age = today.getTime() + DAY - at.getTime();
        const r = rng.next();
        const plan =
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
        open.set(key, { defect, plan, at: new Date(at.getTime() + rng.int(3, 30) * HOUR) });
      }
      built.push(out.rows);
    };

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
        const local = depot.get(org);
        take(
          local && local.group === vehicle.group_id ? local.t : periodic,
          'PERIODIC',
          new Date(day + 9 * HOUR),
          false,
        );
      }
    }
  }
  for (const r of built) {
    counts.reports += 1;
    counts.answers += r.answers.length;
    counts.defects += r.defects.length;
    counts.attachments += r.files.length;
  }
  const generatedMs = Date.now() - started;
  await knex.transaction(async (trx) => {
    await writeTemplates(
      trx,
      templates.map((t) => t.input),
    );
    await writeReports(trx, files, built);
  });
  context.log(
    `dvir: ${counts.reports} reports, ${counts.answers} answers, ${counts.defects} defects, ${counts.attachments} attachments for ${vehicles.length} vehicles in ${Date.now() - started} ms (generated in ${generatedMs} ms)`,
  );
  return { counts };
}
