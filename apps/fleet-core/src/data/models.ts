/** Rows of the fleet schema mapped to the model types the resolvers return. */

export interface AccountModel {
  id: string;
  organizationId: string;
  email: string;
  phone: string | null;
  fullName: string;
  shortName: string | null;
  companyName: string | null;
  countryCode: string | null;
  language: string | null;
  timeZone: string | null;
  createdAt: Date;
  updatedAt: Date;
  lastSignInAt: Date | null;
  confirmedAt: Date | null;
}

export interface GroupModel {
  id: string;
  organizationId: string;
  label: string;
  tags: string[];
  hierarchyLevel: string;
  ownerId: string | null;
}

export interface DeviceModel {
  id: string;
  activeAccount: string | null;
  deviceType: string;
  serialNumber: string | null;
  onboarded: boolean;
  createdAt: Date;
  updatedAt: Date;
  ownerId: string | null;
  productId: string | null;
  currentVehicleId: string | null;
  status: string;
  firstConnectionAt: Date | null;
  lastConnectionAt: Date | null;
  lastDisconnectionAt: Date | null;
  lastActivityAt: Date | null;
  lastConnectionReason: string | null;
  lastDisconnectionReason: string | null;
  lastLatitude: number | null;
  lastLongitude: number | null;
  lastPositionAt: Date | null;
}

export interface VehicleModel {
  id: string;
  vin: string | null;
  plate: string | null;
  make: string | null;
  model: string | null;
  year: number | null;
  fuelType: string;
  color: string | null;
  odometerKm: number | null;
  odometerUpdatedAt: Date | null;
  label: string | null;
  vehicleType: string;
  registrationCountry: string | null;
  fuelTankCapacityL: string | null;
  batteryCapacityKwh: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface ProductModel {
  id: string;
  name: string;
  network: string;
  market: string;
  hasWifi: boolean;
  hasBluetooth: boolean;
}

export interface DriverModel {
  id: string;
  organizationId: string;
  label: string;
  idKey: string | null;
  userProfileId: string | null;
  userContactId: string | null;
  currentVehicleId: string | null;
  defaultVehicleId: string | null;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface TripModel {
  id: string;
  deviceId: string;
  vehicleId: string | null;
  driverId: string | null;
  startedAt: Date;
  endedAt: Date;
  startLatitude: number;
  startLongitude: number;
  endLatitude: number;
  endLongitude: number;
  startAddress: string | null;
  endAddress: string | null;
  distanceM: number;
  maxSpeedKmh: number;
  idleS: number;
  fuelUsedL: number | null;
}

export interface TripMetadatumModel {
  id: string;
  tripId: string;
  key: string;
  value: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface SessionModel {
  id: string;
  deviceId?: string;
  driverId?: string;
  vehicleId: string;
  startedAt: Date;
  endedAt: Date | null;
}

export interface HistoryModel {
  id: string;
  deviceId: string;
  occurredAt: Date;
  event: string;
  reason: string | null;
  vehicleId: string | null;
}

export interface ReadingModel {
  id: string;
  deviceId: string;
  field: string;
  recordedAt: Date;
  value: number;
  latitude: number | null;
  longitude: number | null;
}

export interface BatteryAnnotationModel {
  id: string;
  deviceId: string;
  recordedAt: Date;
  voltage: number;
  state: string;
}
