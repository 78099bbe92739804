/**
 * Resolvers of drivers, trips and device data: Driver, Trip and its events, sessions, history,
 * readings, battery annotations, summaries, plus the fields they add to Account, Group, Device and
 * Vehicle. Every object field goes through a batched, visibility-filtered loader.
 */
import type { Page, PageArgs } from '@fleetgraph/paging';
import type { SubgraphContext } from '@fleetgraph/subgraph-kit';
import type { FleetReader } from '../reader';
import { page } from './list';
import type {
  BatteryAnnotationModel,
  DeviceModel,
  DriverModel,
  HistoryModel,
  ReadingModel,
  SessionModel,
  TripModel,
  VehicleModel,
} from '../data/models';
import type { AggregatedDataModel, Period, TripSummaryModel } from '../data/summaries';

type Ctx = SubgraphContext<FleetReader>;

const account = (id: string | null, reader: FleetReader) => (id ? reader.account.load(id) : null);
const vehicle = (id: string | null, reader: FleetReader) => (id ? reader.vehicle.load(id) : null);
const driver = (id: string | null | undefined, reader: FleetReader) => (id ? reader.driver.load(id) : null);
const device = (id: string | null | undefined, reader: FleetReader) => (id ? reader.device.load(id) : null);
const seconds = (from: Date, to: Date) => Math.round((to.getTime() - from.getTime()) / 1000);
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

export const Driver = {
  __resolveReference: (ref: { id: string }, { reader }: Ctx) => reader.driver.load(String(ref.id)),
  userProfile: (d: DriverModel, _: unknown, { reader }: Ctx) => account(d.userProfileId, reader),
  userContact: (d: DriverModel, _: unknown, { reader }: Ctx) => account(d.userContactId, reader),
  currentVehicle: (d: DriverModel, _: unknown, { reader }: Ctx) => vehicle(d.currentVehicleId, reader),
  defaultVehicle: (d: DriverModel, _: unknown, { reader }: Ctx) => vehicle(d.defaultVehicleId, reader),
  vehicles: page('driverVehicles'),
  currentVehicles: page('driverCurrentVehicles'),
  groups: page('driverGroups'),
  lastTrip: (d: DriverModel, _: unknown, { reader }: Ctx) => reader.lastTripOfDriver.load(d.id),
  trips: page('driverTrips'),
  vehicleSessions: page('driverVehicleSessions'),
};

export const DriverVehicleSession = {
  driver: (s: SessionModel, _: unknown, { reader }: Ctx) => driver(s.driverId, reader),
  vehicle: (s: SessionModel, _: unknown, { reader }: Ctx) => vehicle(s.vehicleId, reader),
};

export const DeviceVehicleSession = {
  device: (s: SessionModel, _: unknown, { reader }: Ctx) => device(s.deviceId, reader),
  vehicle: (s: SessionModel, _: unknown, { reader }: Ctx) => vehicle(s.vehicleId, reader),
};

export const Trip = {
  durationSeconds: (trip: TripModel) => seconds(trip.startedAt, trip.endedAt),
  startPosition: (trip: TripModel) => ({
    latitude: trip.startLatitude,
    longitude: trip.startLongitude,
    recordedAt: trip.startedAt,
  }),
  endPosition: (trip: TripModel) => ({
    latitude: trip.endLatitude,
    longitude: trip.endLongitude,
    recordedAt: trip.endedAt,
  }),
  distanceKm: (trip: TripModel) => trip.distanceM / 1000,
  averageSpeedKmh: (trip: TripModel) => {
    const s = seconds(trip.startedAt, trip.endedAt);
    return s > 0 ? round(trip.distanceM / 1000 / (s / 3600), 1) : 0;
  },
  idleDurationSeconds: (trip: TripModel) => trip.idleS,
  fuelUsedLiters: (trip: TripModel) => trip.fuelUsedL,
  device: (trip: TripModel, _: unknown, { reader }: Ctx) => device(trip.deviceId, reader),
  vehicle: (trip: TripModel, _: unknown, { reader }: Ctx) => vehicle(trip.vehicleId, reader),
  driver: (trip: TripModel, _: unknown, { reader }: Ctx) => driver(trip.driverId, reader),
  harshes: page('tripHarshes'),
  overspeeds: page('tripOverspeeds'),
  metadata: page('tripMetadata'),
};

interface Positioned {
  latitude: number;
  longitude: number;
}

export const TripHarsh = {
  position: (h: Positioned & { occurredAt: Date }) => ({
    latitude: h.latitude,
    longitude: h.longitude,
    recordedAt: h.occurredAt,
  }),
};

export const TripOverspeed = {
  durationSeconds: (o: { startedAt: Date; endedAt: Date }) => seconds(o.startedAt, o.endedAt),
  distanceKm: (o: { distanceM: number }) => o.distanceM / 1000,
  position: (o: Positioned & { startedAt: Date }) => ({
    latitude: o.latitude,
    longitude: o.longitude,
    recordedAt: o.startedAt,
  }),
};

export const DeviceHistory = {
  vehicle: (h: HistoryModel, _: unknown, { reader }: Ctx) => vehicle(h.vehicleId, reader),
};

export const Reading = {
  position: (r: ReadingModel) =>
    r.latitude != null && r.longitude != null
      ? { latitude: r.latitude, longitude: r.longitude, recordedAt: r.recordedAt }
      : null,
};

export const TripSummary = {
  distanceKm: (s: TripSummaryModel) => s.distanceM / 1000,
  drivingDurationSeconds: (s: TripSummaryModel) => s.drivingS,
  idleDurationSeconds: (s: TripSummaryModel) => s.idleS,
  averageSpeedKmh: (s: TripSummaryModel) =>
    s.drivingS > 0 ? round(s.distanceM / 1000 / (s.drivingS / 3600), 1) : null,
  fuelUsedLiters: (s: TripSummaryModel) => (s.fuelUsedL == null ? null : round(s.fuelUsedL, 2)),
  firstTripStartedAt: (s: TripSummaryModel) => s.firstStartedAt,
  lastTripEndedAt: (s: TripSummaryModel) => s.lastEndedAt,
};

/** Parallel-list layout of the spec's paging note: one list per column instead of objects. */
async function batteryAnnotations(d: DeviceModel, args: PageArgs & Record<string, unknown>, { reader }: Ctx) {
  const result = (await reader.relations.get('deviceBatteryAnnotations').load({
    parentId: d.id,
    args,
  })) as Page<BatteryAnnotationModel>;
  return {
    ids: result.list.map((a) => a.id),
    recordedAts: result.list.map((a) => a.recordedAt),
    voltages: result.list.map((a) => a.voltage),
    states: result.list.map((a) => a.state),
    count: result.count,
    next: result.next,
  };
}

export const DeviceTripFields = {
  lastPosition: (d: DeviceModel) =>
    d.lastLatitude != null && d.lastLongitude != null
      ? { latitude: d.lastLatitude, longitude: d.lastLongitude, recordedAt: d.lastPositionAt }
      : null,
  lastTrip: (d: DeviceModel, _: unknown, { reader }: Ctx) => reader.lastTripOfDevice.load(d.id),
  trips: page('deviceTrips'),
  tripSummary: (d: DeviceModel, period: Period, { reader }: Ctx): Promise<TripSummaryModel> =>
    reader.tripSummary.load({
      deviceId: d.id,
      period: { from: period.from ?? null, to: period.to ?? null },
    }),
  harshes: page('deviceHarshes'),
  overspeeds: page('deviceOverspeeds'),
  vehicleSessions: page('deviceVehicleSessions'),
  history: page('deviceHistory'),
  fields: page('deviceFields'),
  readings: page('deviceReadings'),
  readingsAnon: page('deviceReadingsAnon'),
  batteryAnnotations,
  aggregatedData: (d: DeviceModel, period: Period, { reader }: Ctx): Promise<AggregatedDataModel> =>
    reader.aggregatedData.load({
      deviceId: d.id,
      period: { from: period.from ?? null, to: period.to ?? null },
    }),
};

export const VehicleTripFields = {
  fuelTankCapacityLiters: (v: VehicleModel) => v.fuelTankCapacityL,
  currentDriver: (v: VehicleModel, _: unknown, { reader }: Ctx) => reader.driverByVehicle.load(v.id),
  lastTrip: (v: VehicleModel, _: unknown, { reader }: Ctx) => reader.lastTripOfVehicle.load(v.id),
  trips: page('vehicleTrips'),
};

export const AccountDriverFields = {
  drivers: page('accountDrivers'),
  driverProfiles: page('accountDriverProfiles'),
  driverContacts: page('accountDriverContacts'),
};

export const GroupDriverFields = {
  drivers: page('groupDrivers'),
};
