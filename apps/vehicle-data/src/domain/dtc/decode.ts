/**
 * decodeDtcs: structure of each code plus descriptions from the shipped tables.
 *
 * Lookup order for the title (`description`):
 *   - oem: true  -> manufacturer table of the make (argument, else the VIN's brand), then OBDex, then the generic table
 *   - otherwise  -> OBDex, then the generic table, then (manufacturer-specific codes only) the make's table
 * Details (information, cause, effect, recommendation, warning, risks) come from OBDex when it has
 * the code. Texts are in the requested language when the source has it, else in English.
 * The field mapping is documented in apps/vehicle-data/README.md.
 */
import { badInput } from '@fleetgraph/paging';
import { dtcCatalog, makeTables, type Localized, type ObdexRecord } from './catalog';
import { parseDtc, type DtcStructure } from './structure';

export type DtcRisk = 'NO' | 'LOW' | 'MEDIUM' | 'HIGH';

export interface Dtc {
  id: string;
  code: string;
  description: string;
  subdescription: string;
  information: string | null;
  cause: string | null;
  effect: string | null;
  recommendation: string | null;
  warning: string | null;
  classification: string;
  mdiDtc: string;
  protocol: string;
  warningImg: string | null;
  systemCategory: string;
  riskSafety: DtcRisk | null;
  riskDamage: DtcRisk | null;
  riskAvailability: DtcRisk | null;
  riskEmissions: DtcRisk | null;
  /** where the title came from (not in the schema; used in ids and tests) */
  source: string;
}

export interface DecodeDtcsInput {
  codes: (string | null)[];
  protocol: string;
  region: string;
  make: string | null;
  language: string;
  oem: boolean;
}

export const MAX_CODES = 200;

const TEXT = {
  EN: {
    unknown: (s: DtcStructure) =>
      `Unknown code ${s.code}: no description in the ${s.generic ? 'generic' : 'manufacturer'} tables${s.generic ? '' : ' for this make'}`,
    generic: 'generic (SAE J2012)',
    genericEu: 'generic (SAE J2012 / EOBD)',
    manufacturer: 'manufacturer-specific',
    failureType: 'failure type',
    likelihood: { high: 'likely', medium: 'possible', low: 'rare' } as Record<string, string>,
    difficulty: { easy: 'easy', medium: 'moderate', hard: 'hard' } as Record<string, string>,
    repair: {
      difficulty: 'Repair difficulty',
      diy: 'possible as a do-it-yourself repair',
      workshop: 'leave to a workshop',
      cost: 'estimated cost',
      hours: 'h of labour',
    },
    related: 'Related codes',
    mil: 'Malfunction indicator lamp (check engine) on',
    limp: 'Limp mode possible',
    driveCycle: 'A drive cycle is needed to confirm the repair',
    emissions: 'Emissions relevant',
  },
  DE: {
    unknown: (s: DtcStructure) =>
      `Unbekannter Code ${s.code}: keine Beschreibung in den ${s.generic ? 'generischen' : 'herstellerspezifischen'} Tabellen${s.generic ? '' : ' für diese Marke'}`,
    generic: 'generisch (SAE J2012)',
    genericEu: 'generisch (SAE J2012 / EOBD)',
    manufacturer: 'herstellerspezifisch',
    failureType: 'Fehlerart',
    likelihood: { high: 'wahrscheinlich', medium: 'möglich', low: 'selten' } as Record<string, string>,
    difficulty: { easy: 'einfach', medium: 'mittel', hard: 'schwer' } as Record<string, string>,
    repair: {
      difficulty: 'Reparaturaufwand',
      diy: 'in Eigenregie möglich',
      workshop: 'Werkstatt empfohlen',
      cost: 'geschätzte Kosten',
      hours: 'h Arbeitszeit',
    },
    related: 'Verwandte Codes',
    mil: 'Motorkontrollleuchte (MIL) an',
    limp: 'Notlauf möglich',
    driveCycle: 'Fahrzyklus zur Bestätigung der Reparatur nötig',
    emissions: 'Abgasrelevant',
  },
};

type RepairWords = (typeof TEXT)['EN']['repair'];

/** The repair line in one language: difficulty, do-it-yourself or workshop, cost, labour. */
function repairLine(
  words: RepairWords,
  difficulty: string | null,
  diy: boolean | undefined,
  cost: number[] | undefined,
  hours: number[] | undefined,
): string {
  return [
    difficulty ? `${words.difficulty}: ${difficulty}` : null,
    diy === undefined ? null : diy ? words.diy : words.workshop,
    cost ? `${words.cost} ${cost[0]}–${cost[1]} EUR` : null,
    hours ? `${hours[0]}–${hours[1]} ${words.hours}` : null,
  ]
    .filter(Boolean)
    .join('; ');
}

const SYSTEM_DE: Record<string, string> = {
  Powertrain: 'Antrieb',
  Body: 'Karosserie',
  Chassis: 'Fahrwerk',
  Network: 'Netzwerk',
};

export function decodeDtcs(input: DecodeDtcsInput): (Dtc | null)[] {
  if (input.codes.length > MAX_CODES)
    throw badInput(`codes may hold at most ${MAX_CODES} codes (got ${input.codes.length}).`, {
      argument: 'codes',
    });
  const allowFailureType = input.protocol === 'UDS';
  // Validate every code first, so one malformed code fails the whole call with its name.
  const structures = input.codes.map((c) => (c == null ? null : parseDtc(c, allowFailureType)));
  return structures.map((s) => (s ? decodeOne(s, input) : null));
}

function decodeOne(s: DtcStructure, input: DecodeDtcsInput): Dtc {
  const catalog = dtcCatalog();
  const lang = input.language === 'DE' ? 'DE' : 'EN';
  const t = TEXT[lang];
  const key = input.language.toLowerCase();
  const pick = (l: Localized | undefined) => (l ? (l[key] ?? l.en ?? null) : null);
  const tables = makeTables(input.make);
  const fromMake = (): [string, string] | null => {
    for (const table of tables) {
      const title = catalog.makes[table]?.[s.code];
      if (title) return [title, `wal33d:${table}`];
    }
    return null;
  };
  const obdex: ObdexRecord | undefined = catalog.obdex[s.code];
  const fromObdex = (): [string, string] | null => (obdex ? [pick(obdex.title)!, 'obdex'] : null);
  const fromGeneric = (): [string, string] | null => {
    if (key === 'de' && catalog.germanTitles[s.code])
      return [catalog.germanTitles[s.code]!, 'vehicle-data:de'];
    const title = catalog.generic[s.code];
    return title ? [title, 'wal33d:generic'] : null;
  };
  const order = input.oem
    ? [fromMake, fromObdex, fromGeneric]
    : s.generic
      ? [fromObdex, fromGeneric, fromMake]
      : [fromObdex, fromMake, fromGeneric];
  let found: [string, string] | null = null;
  for (const lookup of order) if ((found = lookup())) break;
  // OBDex details apply unless a manufacturer table redefines a manufacturer-specific code.
  const fromMakeTable = found?.[1].startsWith('wal33d:') && found[1] !== 'wal33d:generic';
  const details = s.generic || !fromMakeTable ? obdex : undefined;

  const systemName = lang === 'DE' ? (SYSTEM_DE[s.systemName] ?? s.systemName) : s.systemName;
  const classification = s.generic ? (input.region === 'EUROPE' ? t.genericEu : t.generic) : t.manufacturer;
  const subdescription = [
    `${systemName} – ${classification}`,
    s.subsystem,
    s.failureType ? `${t.failureType} 0x${s.failureType}` : null,
  ]
    .filter(Boolean)
    .join(' · ');

  const causes = details?.causes?.map(
    (c) => `${pick(c.label)}${c.likelihood ? ` (${t.likelihood[c.likelihood] ?? c.likelihood})` : ''}`,
  );
  const symptoms = details?.symptoms?.map((x) => pick(x));
  const repair = details?.repair;
  const recommendation = repair
    ? [
        repairLine(
          t.repair,
          repair.difficulty ? (t.difficulty[repair.difficulty] ?? repair.difficulty) : null,
          repair.diy_possible,
          repair.estimated_cost_eur,
          repair.estimated_hours,
        ),
        details?.related?.length ? `${t.related}: ${details.related.join(', ')}` : null,
      ]
        .filter(Boolean)
        .join('. ')
    : null;
  const flags = details?.flags;
  const warnings = flags
    ? [
        flags.mil ? t.mil : null,
        flags.limp_mode_possible ? t.limp : null,
        flags.emissions_relevant ? t.emissions : null,
        flags.drive_cycle_required ? t.driveCycle : null,
      ].filter(Boolean)
    : [];
  const risks = details ? riskOf(s, details) : null;
  const source = found?.[1] ?? 'none';
  return {
    id: `${s.code}${s.failureType ? `-${s.failureType}` : ''}:${source}:${key}`,
    code: s.failureType ? `${s.code}-${s.failureType}` : s.code,
    description: found?.[0] ?? t.unknown(s),
    subdescription,
    information: pick(details?.description),
    cause: causes?.length ? causes.join('; ') : null,
    effect: symptoms?.length ? symptoms.join('; ') : null,
    recommendation: recommendation || null,
    warning: warnings.length ? warnings.join('; ') : null,
    classification: s.generic ? 'GENERIC' : 'MANUFACTURER_SPECIFIC',
    mdiDtc: s.raw + (s.failureType ?? ''),
    protocol: input.protocol,
    warningImg: flags?.mil ? 'mil' : null,
    systemCategory: s.subsystem ? `${s.systemName} / ${s.subsystem}` : s.systemName,
    riskSafety: risks?.safety ?? null,
    riskDamage: risks?.damage ?? null,
    riskAvailability: risks?.availability ?? null,
    riskEmissions: risks?.emissions ?? null,
    source,
  };
}

/** Heuristic risk levels from OBDex flags and repair estimates (documented in the README). */
function riskOf(s: DtcStructure, r: ObdexRecord) {
  const flags = r.flags ?? {};
  const maxCost = r.repair?.estimated_cost_eur?.[1];
  const damage: DtcRisk =
    maxCost == null
      ? r.repair?.difficulty === 'hard'
        ? 'MEDIUM'
        : 'LOW'
      : maxCost >= 1000
        ? 'HIGH'
        : maxCost >= 300
          ? 'MEDIUM'
          : 'LOW';
  const availability: DtcRisk = flags.limp_mode_possible ? 'HIGH' : flags.mil ? 'LOW' : 'NO';
  const emissions: DtcRisk = flags.emissions_relevant ? (flags.mil ? 'HIGH' : 'MEDIUM') : 'NO';
  const safetyCritical =
    s.system === 'C' ||
    (r.components ?? []).some((c) => /brake|abs|steer|airbag|srs|tire|tyre|stability/.test(c));
  const safety: DtcRisk = safetyCritical
    ? flags.limp_mode_possible || flags.mil
      ? 'HIGH'
      : 'MEDIUM'
    : flags.limp_mode_possible
      ? 'LOW'
      : 'NO';
  return { safety, damage, availability, emissions };
}
