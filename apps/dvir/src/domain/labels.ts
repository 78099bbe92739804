/**
 * Localized texts. Item and template texts come from their `translations` ({"FR": {"name",
 * "description"}}), falling back to the untranslated text (the template's default language);
 * category and result labels come from the table below, falling back to the template's default
 * language, then English. Never a blank: an empty translation counts as missing.
 */
export const LANGUAGES = ['EN', 'FR', 'DE', 'ES', 'IT', 'NL'] as const;
export type Lang = string;

type Table = Record<string, Record<string, string>>;

export const CATEGORY_LABELS: Table = {
  EXTERIOR: { EN: 'Exterior', FR: 'Extérieur', DE: 'Außen', ES: 'Exterior', IT: 'Esterno', NL: 'Buitenkant' },
  INTERIOR: {
    EN: 'Interior',
    FR: 'Intérieur',
    DE: 'Innenraum',
    ES: 'Interior',
    IT: 'Interno',
    NL: 'Interieur',
  },
  ENGINE: { EN: 'Engine', FR: 'Moteur', DE: 'Motor', ES: 'Motor', IT: 'Motore', NL: 'Motor' },
  BRAKES: { EN: 'Brakes', FR: 'Freins', DE: 'Bremsen', ES: 'Frenos', IT: 'Freni', NL: 'Remmen' },
  TIRES: {
    EN: 'Tires and wheels',
    FR: 'Pneus et roues',
    DE: 'Reifen und Räder',
    ES: 'Neumáticos y ruedas',
    IT: 'Pneumatici e ruote',
    NL: 'Banden en wielen',
  },
  LIGHTS: { EN: 'Lights', FR: 'Éclairage', DE: 'Beleuchtung', ES: 'Luces', IT: 'Luci', NL: 'Verlichting' },
  STEERING_SUSPENSION: {
    EN: 'Steering and suspension',
    FR: 'Direction et suspension',
    DE: 'Lenkung und Federung',
    ES: 'Dirección y suspensión',
    IT: 'Sterzo e sospensioni',
    NL: 'Stuurinrichting en vering',
  },
  SAFETY_EQUIPMENT: {
    EN: 'Safety equipment',
    FR: 'Équipement de sécurité',
    DE: 'Sicherheitsausrüstung',
    ES: 'Equipo de seguridad',
    IT: 'Dotazioni di sicurezza',
    NL: 'Veiligheidsuitrusting',
  },
  DOCUMENTS: {
    EN: 'Documents',
    FR: 'Documents',
    DE: 'Dokumente',
    ES: 'Documentos',
    IT: 'Documenti',
    NL: 'Documenten',
  },
  CARGO: { EN: 'Cargo', FR: 'Chargement', DE: 'Ladung', ES: 'Carga', IT: 'Carico', NL: 'Lading' },
  OTHER: { EN: 'Other', FR: 'Autre', DE: 'Sonstiges', ES: 'Otro', IT: 'Altro', NL: 'Overig' },
};

export const RESULT_LABELS: Table = {
  OK: { EN: 'OK', FR: 'Conforme', DE: 'In Ordnung', ES: 'Correcto', IT: 'Conforme', NL: 'In orde' },
  DEFECT: { EN: 'Defect', FR: 'Défaut', DE: 'Mangel', ES: 'Defecto', IT: 'Difetto', NL: 'Defect' },
  NOT_APPLICABLE: {
    EN: 'Not applicable',
    FR: 'Non applicable',
    DE: 'Nicht zutreffend',
    ES: 'No aplica',
    IT: 'Non applicabile',
    NL: 'Niet van toepassing',
  },
};

const nonBlank = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/** A label of the table in `locale`, else the default language, else English, else the code. */
export function tableLabel(
  table: Table,
  code: string | null | undefined,
  locale: Lang | undefined,
  fallback: Lang,
) {
  if (!code) return null;
  const labels = table[code];
  if (!labels) return code;
  return [locale, fallback, 'EN'].map((l) => (l ? labels[l] : undefined)).find(nonBlank) ?? code;
}

/** A translated text (`translations[locale][key]`), else the untranslated text. */
export function translated(
  translations: unknown,
  key: 'name' | 'description',
  locale: Lang | undefined,
  base: string | null | undefined,
): string | null {
  if (locale && translations && typeof translations === 'object') {
    const entry = (translations as Record<string, Record<string, unknown> | undefined>)[locale];
    const text = entry?.[key];
    if (nonBlank(text)) return text;
  }
  return base ?? null;
}
