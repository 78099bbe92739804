/** The demo's checklist items, translated into the six demo languages. */
import type { Translations } from '../domain/rules';

export interface CatalogItem {
  key: string;
  category: string;
  /** name, description by language */
  text: Record<string, [string, string]>;
  photoCountMin?: number;
  photoCountMax?: number;
  commentOnSuccess?: boolean;
  required?: boolean;
}

export const CATALOG: CatalogItem[] = [
  {
    key: 'body',
    category: 'EXTERIOR',
    text: {
      EN: ['Body, doors and mirrors', 'No damage, doors close, mirrors adjusted'],
      FR: ['Carrosserie, portes et rétroviseurs', 'Pas de dommage, portes fermées, rétroviseurs réglés'],
      DE: ['Karosserie, Türen und Spiegel', 'Keine Schäden, Türen schließen, Spiegel eingestellt'],
      ES: ['Carrocería, puertas y espejos', 'Sin daños, puertas cerradas, espejos ajustados'],
      IT: ['Carrozzeria, porte e specchietti', 'Nessun danno, porte chiuse, specchietti regolati'],
      NL: ['Carrosserie, deuren en spiegels', 'Geen schade, deuren sluiten, spiegels afgesteld'],
    },
  },
  {
    key: 'lights',
    category: 'LIGHTS',
    text: {
      EN: ['Lights and indicators', 'Head, tail, brake and turn lights work'],
      FR: ['Feux et clignotants', 'Feux avant, arrière, stop et clignotants fonctionnent'],
      DE: ['Beleuchtung und Blinker', 'Scheinwerfer, Rück-, Brems- und Blinklichter funktionieren'],
      ES: ['Luces e intermitentes', 'Luces delanteras, traseras, de freno e intermitentes funcionan'],
      IT: ['Luci e indicatori', 'Fari, luci posteriori, stop e frecce funzionano'],
      NL: [
        'Verlichting en richtingaanwijzers',
        'Koplampen, achterlichten, remlichten en knipperlichten werken',
      ],
    },
  },
  {
    key: 'tires',
    category: 'TIRES',
    photoCountMin: 1,
    text: {
      EN: ['Tires and wheels', 'Tread depth, pressure, no cuts, wheel nuts tight'],
      FR: ['Pneus et roues', 'Profondeur des sculptures, pression, pas de coupures, écrous serrés'],
      DE: ['Reifen und Räder', 'Profiltiefe, Luftdruck, keine Schnitte, Radmuttern fest'],
      ES: ['Neumáticos y ruedas', 'Profundidad, presión, sin cortes, tuercas apretadas'],
      IT: ['Pneumatici e ruote', 'Battistrada, pressione, nessun taglio, bulloni serrati'],
      NL: ['Banden en wielen', 'Profieldiepte, bandenspanning, geen sneden, wielmoeren vast'],
    },
  },
  {
    key: 'brakes',
    category: 'BRAKES',
    photoCountMin: 1,
    text: {
      EN: ['Brakes', 'Service and parking brake hold, no warning light'],
      FR: ['Freins', 'Frein de service et frein à main efficaces, pas de voyant'],
      DE: ['Bremsen', 'Betriebs- und Feststellbremse halten, keine Warnleuchte'],
      ES: ['Frenos', 'Freno de servicio y de mano eficaces, sin testigo'],
      IT: ['Freni', 'Freno di servizio e di stazionamento efficaci, nessuna spia'],
      NL: ['Remmen', 'Bedrijfs- en parkeerrem houden, geen waarschuwingslampje'],
    },
  },
  {
    key: 'fluids',
    category: 'ENGINE',
    text: {
      EN: ['Fluids and leaks', 'Oil, coolant and washer levels; no leak under the vehicle'],
      FR: ['Niveaux et fuites', 'Huile, liquide de refroidissement et lave-glace ; pas de fuite'],
      DE: ['Flüssigkeiten und Lecks', 'Öl, Kühlmittel und Waschwasser; keine Undichtigkeit'],
      ES: ['Líquidos y fugas', 'Aceite, refrigerante y limpiaparabrisas; sin fugas'],
      IT: ['Liquidi e perdite', 'Olio, refrigerante e lavavetri; nessuna perdita'],
      NL: ['Vloeistoffen en lekkage', 'Olie, koelvloeistof en ruitensproeier; geen lekkage'],
    },
  },
  {
    key: 'cab',
    category: 'INTERIOR',
    text: {
      EN: ['Cab, seat belts and horn', 'Seat belts latch, horn and wipers work'],
      FR: ['Cabine, ceintures et klaxon', 'Ceintures, klaxon et essuie-glaces fonctionnent'],
      DE: ['Kabine, Gurte und Hupe', 'Gurte rasten ein, Hupe und Wischer funktionieren'],
      ES: ['Cabina, cinturones y claxon', 'Cinturones, claxon y limpiaparabrisas funcionan'],
      IT: ['Cabina, cinture e clacson', 'Cinture, clacson e tergicristalli funzionano'],
      NL: ['Cabine, gordels en claxon', 'Gordels klikken vast, claxon en ruitenwissers werken'],
    },
  },
  {
    key: 'safety',
    category: 'SAFETY_EQUIPMENT',
    required: false,
    text: {
      EN: ['Safety equipment', 'Warning triangle, vest, fire extinguisher, first-aid kit'],
      FR: ['Équipement de sécurité', 'Triangle, gilet, extincteur, trousse de secours'],
      DE: ['Sicherheitsausrüstung', 'Warndreieck, Warnweste, Feuerlöscher, Verbandkasten'],
      ES: ['Equipo de seguridad', 'Triángulo, chaleco, extintor, botiquín'],
      IT: ['Dotazioni di sicurezza', 'Triangolo, giubbotto, estintore, kit di pronto soccorso'],
      NL: ['Veiligheidsuitrusting', 'Gevarendriehoek, hesje, brandblusser, EHBO-doos'],
    },
  },
  {
    key: 'documents',
    category: 'DOCUMENTS',
    commentOnSuccess: true,
    text: {
      EN: ['Documents on board', 'Registration, insurance, last inspection report'],
      FR: ['Documents à bord', 'Carte grise, assurance, dernier rapport d’inspection'],
      DE: ['Dokumente an Bord', 'Zulassung, Versicherung, letzter Prüfbericht'],
      ES: ['Documentos a bordo', 'Permiso de circulación, seguro, último informe'],
      IT: ['Documenti a bordo', 'Libretto, assicurazione, ultimo rapporto'],
      NL: ['Documenten aan boord', 'Kentekenbewijs, verzekering, laatste inspectierapport'],
    },
  },
];

/** Translations of a catalog item for every language but `base`. */
export function itemTranslations(item: CatalogItem, base: string): Translations {
  return Object.fromEntries(
    Object.entries(item.text)
      .filter(([lang]) => lang !== base)
      .map(([lang, [name, description]]) => [lang, { name, description }]),
  );
}
