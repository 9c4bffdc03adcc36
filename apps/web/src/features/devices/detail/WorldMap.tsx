import { useEffect, useMemo, useRef, useState, type PointerEvent, type WheelEvent } from 'react';
import { Button, Space, Spin } from 'antd';
import { geoGraticule10, geoMercator, geoPath } from 'd3-geo';
import { feature } from 'topojson-client';
import type { FeatureCollection, Geometry } from 'geojson';
import type { GeometryCollection, Topology } from 'topojson-specification';

/** Spec 2 section 9: the position map opens at zoom 4 (web-map zoom levels, 256 px tiles). */
export const MAP_ZOOM = 4;
const MIN_ZOOM = 1;
const MAX_ZOOM = 9;
const scaleOf = (zoom: number) => (256 * 2 ** zoom) / (2 * Math.PI);

let countries: Promise<FeatureCollection<Geometry>> | undefined;
/** Natural Earth 1:50m countries, bundled with the console and fetched only when a map is shown. */
function loadCountries() {
  countries ??= import('world-atlas/countries-50m.json').then((module) => {
    const topology = module.default as unknown as Topology<{ countries: GeometryCollection }>;
    return feature(topology, topology.objects.countries);
  });
  return countries;
}

interface WorldMapProps {
  latitude: number;
  longitude: number;
  width: number;
  height: number;
  label: string;
}

/** An offline map (no tile server): country outlines drawn as SVG around the panel's point, pan and zoom. */
export default function WorldMap({ latitude, longitude, width, height, label }: WorldMapProps) {
  const [land, setLand] = useState<FeatureCollection<Geometry>>();
  const [zoom, setZoom] = useState(MAP_ZOOM);
  const [center, setCenter] = useState<[number, number]>([longitude, latitude]);
  const drag = useRef<{ x: number; y: number; center: [number, number] }>(undefined);

  useEffect(() => {
    let live = true;
    void loadCountries().then((collection) => live && setLand(collection));
    return () => {
      live = false;
    };
  }, []);
  useEffect(() => setCenter([longitude, latitude]), [longitude, latitude]);

  const projection = useMemo(
    () =>
      geoMercator()
        .scale(scaleOf(zoom))
        .center(center)
        .translate([width / 2, height / 2])
        .clipExtent([
          [0, 0],
          [width, height],
        ]),
    [zoom, center, width, height],
  );
  const path = useMemo(() => geoPath(projection), [projection]);
  const point = projection([longitude, latitude]);

  const onPointerDown = (e: PointerEvent<SVGSVGElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { x: e.clientX, y: e.clientY, center };
  };
  const onPointerMove = (e: PointerEvent<SVGSVGElement>) => {
    const start = drag.current;
    if (!start) return;
    const from = geoMercator()
      .scale(scaleOf(zoom))
      .center(start.center)
      .translate([width / 2, height / 2]);
    const moved = from.invert?.([width / 2 - (e.clientX - start.x), height / 2 - (e.clientY - start.y)]);
    if (moved) setCenter([moved[0], Math.max(-80, Math.min(80, moved[1]))]);
  };
  const onWheel = (e: WheelEvent<SVGSVGElement>) =>
    setZoom((z) => Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, z + (e.deltaY < 0 ? 1 : -1))));

  if (!land) return <Spin style={{ display: 'block', margin: '40px auto' }} />;
  return (
    <div style={{ position: 'relative' }}>
      <svg
        width={width}
        height={height}
        role="img"
        aria-label={label}
        data-testid="device-map"
        data-zoom={zoom}
        style={{
          background: '#cfe3f3',
          borderRadius: 6,
          cursor: 'grab',
          touchAction: 'none',
          display: 'block',
        }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={() => (drag.current = undefined)}
        onWheel={onWheel}
      >
        <path d={path(geoGraticule10()) ?? ''} fill="none" stroke="#b5cde0" strokeWidth={0.5} />
        {land.features.map((country, i) => (
          <path
            key={String(country.id ?? i)}
            d={path(country) ?? ''}
            fill="#f4f1e8"
            stroke="#9c9486"
            strokeWidth={0.6}
          />
        ))}
        {point && (
          <g transform={`translate(${point[0]},${point[1]})`} data-testid="device-map-point">
            <circle r={11} fill="rgba(245, 34, 45, 0.2)" />
            <circle r={5} fill="#f5222d" stroke="#fff" strokeWidth={2} />
          </g>
        )}
      </svg>
      <Space.Compact orientation="vertical" style={{ position: 'absolute', right: 8, top: 8 }}>
        <Button size="small" onClick={() => setZoom((z) => Math.min(MAX_ZOOM, z + 1))} aria-label="zoom in">
          +
        </Button>
        <Button size="small" onClick={() => setZoom((z) => Math.max(MIN_ZOOM, z - 1))} aria-label="zoom out">
          −
        </Button>
        <Button
          size="small"
          onClick={() => {
            setZoom(MAP_ZOOM);
            setCenter([longitude, latitude]);
          }}
          aria-label="recenter"
        >
          ◎
        </Button>
      </Space.Compact>
    </div>
  );
}
