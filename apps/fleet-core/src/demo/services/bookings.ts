/** Services demo of workshops: the organization's workshops, driver services and bookings. */
import { uuidV5 } from '../ids';
import { DRIVER_SERVICES, WORKSHOPS } from './catalogs';
import { DAY, HOUR, type OrgContext } from './context';

/** The organization's workshops (those of its country) and driver services offered by some of them. */
export function writeWorkshops(ctx: OrgContext): void {
  const { rng, org, french, push, at } = ctx;
  ctx.orgWorkshops = WORKSHOPS.filter((w) => (w.country === 'FR') === french).map((w) =>
    uuidV5(`workshop:${w.key}`),
  );
  const orgWorkshops = ctx.orgWorkshops;
  for (const workshopId of orgWorkshops)
    push('fleet.organization_workshops', { organization_id: org.id, workshop_id: workshopId });
  for (const [label, descriptionText] of DRIVER_SERVICES) {
    const id = uuidV5(`driver-service:${org.id}:${label}`);
    push('fleet.driver_services', {
      id,
      organization_id: org.id,
      label,
      description: descriptionText,
      created_at: at(rng.int(100, 500)),
    });
    for (const workshopId of orgWorkshops) {
      if (rng.chance(0.6))
        push('fleet.driver_service_workshops', { driver_service_id: id, workshop_id: workshopId });
    }
  }
}

/** Bookings of vehicles at the workshops, from 60 days ago to 30 days ahead. */
export function writeBookings(ctx: OrgContext): void {
  const { rng, org, now, orgVehicles, orgAccounts, orgWorkshops, push } = ctx;
  const bookingCount = Math.max(4, Math.round(orgVehicles.length / 6));
  for (let i = 0; i < bookingCount && orgVehicles.length > 0; i++) {
    const vehicle = rng.pick(orgVehicles);
    const user = rng.pick(orgAccounts);
    const daysFromNow = rng.int(-60, 30);
    const date = new Date(now + daysFromNow * DAY + rng.int(7, 17) * HOUR);
    const status =
      daysFromNow < 0
        ? rng.pick(['COMPLETED', 'COMPLETED', 'CANCELLED'])
        : daysFromNow === 0
          ? 'IN_PROGRESS'
          : rng.pick(['PENDING', 'CONFIRMED', 'CONFIRMED', 'REJECTED']);
    const workshopId = rng.pick(orgWorkshops);
    const workshop = WORKSHOPS.find((w) => uuidV5(`workshop:${w.key}`) === workshopId)!;
    const id = uuidV5(`booking:${org.id}:${i}`);
    push('fleet.bookings', {
      id,
      organization_id: org.id,
      account_id: user.id,
      vehicle_id: vehicle.id,
      workshop_id: workshopId,
      plate_number: vehicle.plate,
      booking_date: date,
      status,
      quotation_ids: status === 'PENDING' ? [] : [`Q-${id.slice(0, 8).toUpperCase()}`],
      vehicle_make: vehicle.make,
      vehicle_model: vehicle.model,
      vehicle_year: vehicle.model_year != null ? String(vehicle.model_year) : null,
      vin: vehicle.vin,
      city: workshop.city,
      country: workshop.country,
      additional_information: rng.pick([
        null,
        'Warning light on the dashboard',
        'Noise when braking',
        'Please call before starting work',
      ]),
      preferred_language: user.language,
      contact_method: rng.pick(['SMS', 'EMAIL', 'PHONE', 'WHATSAPP']),
      user_email: user.email,
      user_name: user.full_name,
      user_phone_number: user.phone,
      created_at: new Date(Math.min(now, date.getTime()) - rng.int(1, 20) * DAY),
      updated_at: new Date(Math.min(now, date.getTime())),
    });
  }
}
