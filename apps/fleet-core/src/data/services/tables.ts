/** Every table spec of the services areas (the keyset-precision test walks them all). */
export * from './alerts/tables';
export * from './bookings/tables';
export * from './campaigns/tables';
export * from './client-identifications/tables';
export * from './descriptions/tables';
export * from './driver-services/tables';
export * from './log-fetches/tables';
export * from './lpa/tables';
export * from './metrics/tables';
export * from './onboarding/tables';
export * from './profiles/tables';
export * from './remote-diags/tables';
export * from './workshops/tables';
