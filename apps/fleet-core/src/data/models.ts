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
