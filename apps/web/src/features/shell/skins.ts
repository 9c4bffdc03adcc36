/** The ten skin colours (spec 1 section 9); the id is stored, the colour drives colorPrimary. */
export const SKINS = [
  { id: 'blue', color: '#1677ff' },
  { id: 'geekblue', color: '#2f54eb' },
  { id: 'purple', color: '#722ed1' },
  { id: 'magenta', color: '#c41d7f' },
  { id: 'red', color: '#cf1322' },
  { id: 'volcano', color: '#d4380d' },
  { id: 'orange', color: '#d46b08' },
  { id: 'green', color: '#389e0d' },
  { id: 'cyan', color: '#08979c' },
  { id: 'slate', color: '#475467' },
] as const;

export type Skin = (typeof SKINS)[number];
export type SkinId = Skin['id'];

export const SKIN_STORAGE_KEY = 'skin';
export const DEFAULT_SKIN: Skin = SKINS[0];

export const skinById = (id: string | null): Skin => SKINS.find((skin) => skin.id === id) ?? DEFAULT_SKIN;

/** An unknown or missing stored value falls back to the default skin. */
export const loadSkin = (storage: Pick<Storage, 'getItem'>): Skin =>
  skinById(storage.getItem(SKIN_STORAGE_KEY));

export const saveSkin = (storage: Pick<Storage, 'setItem'>, id: SkinId): void =>
  storage.setItem(SKIN_STORAGE_KEY, id);
