import { mergeCatalogs } from '@panelfleet/contract';

export type Catalog = Record<string, unknown>;

/** One language's strings: the console's catalogs and the contract's messages, each merged from its files. */
export interface LanguageStrings {
  console: Catalog;
  contract: Catalog;
}

export const mergeFiles = (base: Catalog, areas: Record<string, Catalog>): Catalog =>
  mergeCatalogs(base, ...Object.values(areas));
