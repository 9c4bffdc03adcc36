type Catalog = Record<string, unknown>;

const isCatalog = (value: unknown): value is Catalog =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Deep-merges message catalogs: nested groups combine, and a key defined twice is a mistake
 * (two areas claiming one message), so it throws at load instead of one silently winning.
 */
export function mergeCatalogs(...catalogs: Catalog[]): Catalog {
  const merged: Catalog = {};
  const merge = (target: Catalog, source: Catalog, path: string) => {
    for (const [key, value] of Object.entries(source)) {
      const at = path ? `${path}.${key}` : key;
      const existing = target[key];
      if (isCatalog(existing) && isCatalog(value)) merge(existing, value, at);
      else if (existing !== undefined) throw new Error(`message ${at} is defined twice`);
      else target[key] = isCatalog(value) ? merge({}, value, at) : value;
    }
    return target;
  };
  for (const catalog of catalogs) merge(merged, catalog, '');
  return merged;
}
