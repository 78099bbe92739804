export {
  visibleGroups,
  visibleDevices,
  visibleVehicles,
  visibleDrivers,
  visibleAccounts,
  refreshGroupClosure,
} from './visibility';
