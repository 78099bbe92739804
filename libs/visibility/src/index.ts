export {
  visibleGroups,
  visibleDevices,
  visibleVehicles,
  visibleDrivers,
  visibleAccounts,
  refreshGroupClosure,
  organizationOf,
  FLEET_CONTRACT,
} from './visibility';
