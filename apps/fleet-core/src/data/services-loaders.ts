/** The services areas' loaders now live in src/services (one folder per area). */
export { serviceLoaders, type ServiceLoaders } from '../services/loaders';
