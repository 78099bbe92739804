export { bundleAll, bundleEntries, copyPackageClosure, packageName } from './bundle';
export { renderCompose, renderHaproxy, secretNames, balancedServices } from './compose-file';
