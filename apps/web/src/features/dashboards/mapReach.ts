import { echarts } from './echarts';

export type MapRegion = ReturnType<typeof echarts.parseGeoJSON>[number];

/** How far (degrees, about 30 km) off a region's outline a panel still counts as on it: the maps' coasts are coarse. */
const NEAR = 0.3;
const PROBES: ReadonlyArray<readonly [number, number]> = [
  [0, 0],
  [NEAR, 0],
  [-NEAR, 0],
  [0, NEAR],
  [0, -NEAR],
];

/** The regions of a map's GeoJSON (compressed or not), to tell which panels it shows. */
export const regionsOf = (geoJson: unknown): MapRegion[] =>
  echarts.parseGeoJSON(geoJson as Parameters<typeof echarts.parseGeoJSON>[0], 'name');

/** Whether a position lies on one of the map's regions (or just off its coast). */
export const onMap = (regions: readonly MapRegion[], longitude: number, latitude: number): boolean =>
  PROBES.some(([dx, dy]) => regions.some((region) => region.contain([longitude + dx, latitude + dy])));
