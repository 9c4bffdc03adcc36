import { useEffect, useMemo, useRef, useState } from 'react';
import { Empty, Segmented, Space, Spin, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { dashboard } from '@panelfleet/contract';
import { call } from '../../api/client';
import { SESSION_QUERY_KEY } from '../../app/queryClient';
import { pollWhile, useLiveEvents } from '../../live/useLive';
import { DeviceDetailModal } from '../devices/detail/DeviceDetailModal';
import { Chart } from './Chart';
import { clusterColor, markerSize, PanelClusters, type ClusterPoint } from './clusters';
import type { echarts } from './echarts';
import { onMap } from './mapReach';
import { loadMap, mapRegions, nameMapOf, type MapName } from './maps';

/** Map zoom (echarts geo) to cluster zoom (web-map levels): the world map at zoom 1 is about level 1.5. */
const clusterZoom = (geoZoom: number, map: MapName) => Math.log2(geoZoom) + (map === 'china' ? 3.5 : 1.5);

/**
 * View Map: every located panel of the company on the offline map, clustered, green online, grey
 * offline (orange: a cluster of both). A cluster click zooms in; a panel click opens its detail.
 * Presence events recolour panels at once; without the stream the list is read every 5 s.
 */
export default function FleetMapView() {
  const { t, i18n } = useTranslation();
  const [map, setMap] = useState<MapName>('world');
  const [ready, setReady] = useState<MapName>();
  const [zoom, setZoom] = useState(1);
  const [center, setCenter] = useState<[number, number] | undefined>();
  const [detailId, setDetailId] = useState<number>();
  const [pushed, setPushed] = useState<ReadonlyMap<string, boolean>>(new Map());
  const chart = useRef<echarts.ECharts>(undefined);
  const connected = useLiveEvents((event) => {
    if (event.type === 'presence') setPushed((seen) => new Map(seen).set(event.deviceKey, event.online));
  });
  const query = useQuery({
    queryKey: [...SESSION_QUERY_KEY, 'mapDevices'],
    queryFn: async () => {
      const reply = await call(dashboard.mapDevices, {});
      setPushed(new Map());
      return reply;
    },
    refetchInterval: pollWhile(connected, dashboard.DASHBOARD.pollMs),
  });
  useEffect(() => {
    let live = true;
    void loadMap(map).then(() => live && setReady(map));
    setZoom(1);
    setCenter(undefined);
    return () => {
      live = false;
    };
  }, [map]);

  const devices = useMemo(
    () =>
      (query.data?.listObject ?? []).map((d) => {
        const online = pushed.get(d.deviceKey);
        return online === undefined ? d : { ...d, isOnline: online ? ('1' as const) : ('0' as const) };
      }),
    [query.data, pushed],
  );
  const clusters = useMemo(() => new PanelClusters(devices), [devices]);
  const points = clusters.at(clusterZoom(zoom, map));
  const online = devices.filter((d) => d.isOnline === '1').length;
  // The China map shows the panels in China; those elsewhere are on the world map only.
  const inChina = useMemo(() => {
    const regions = map === 'china' && ready === map ? mapRegions(map) : undefined;
    return regions && devices.filter((d) => onMap(regions, d.longitude, d.latitude)).length;
  }, [devices, map, ready]);
  const shown = inChina ?? query.data?.totalRecords ?? 0;
  const elsewhere = inChina === undefined ? 0 : devices.length - inChina;

  const option = {
    tooltip: {
      trigger: 'item',
      formatter: (p: { data?: { point?: ClusterPoint } }) => {
        const point = p.data?.point;
        if (!point) return '';
        if (point.device)
          return `${point.device.deviceName}<br/>${point.device.deviceKey}<br/>${t(point.device.isOnline === '1' ? 'lists.online' : 'lists.offline')} · ${t(`dashboard.source.${point.device.source}`)}`;
        return t('dashboard.clusterTip', { count: point.count, online: point.online });
      },
    },
    geo: {
      map,
      roam: true,
      zoom,
      ...(center ? { center } : {}),
      nameMap: nameMapOf(map, i18n.language),
      itemStyle: { areaColor: '#f4f1e8', borderColor: '#9c9486' },
      emphasis: { itemStyle: { areaColor: '#ebe5d3' }, label: { show: false } },
      scaleLimit: { min: 1, max: 200 },
    },
    series: [
      {
        type: 'scatter',
        coordinateSystem: 'geo',
        data: points.map((point) => ({
          value: [point.longitude, point.latitude, point.count],
          point,
          // Big enough to see and to click on a 1440x900 screen, with a count that fits its circle.
          symbolSize: markerSize(point.count),
          itemStyle: {
            color: clusterColor(point),
            borderColor: '#fff',
            borderWidth: 2,
            shadowBlur: 4,
            shadowColor: 'rgba(0, 0, 0, 0.35)',
          },
          label: {
            show: point.count > 1,
            formatter: String(point.count),
            color: '#fff',
            fontWeight: 'bold',
            fontSize: point.count >= 100 ? 11 : 13,
          },
        })),
        zlevel: 1,
      },
    ],
  };

  const onEvents = {
    georoam: () => {
      const geo = (chart.current?.getOption() as { geo?: Array<{ zoom: number; center?: [number, number] }> })
        ?.geo?.[0];
      if (geo) {
        setZoom(geo.zoom);
        if (geo.center) setCenter(geo.center);
      }
    },
    click: (params: unknown) => {
      const point = (params as { data?: { point?: ClusterPoint } }).data?.point;
      if (!point) return;
      if (point.device) setDetailId(point.device.deviceId);
      else {
        setCenter([point.longitude, point.latitude]);
        setZoom((z) => z * 2 ** Math.max(1, (point.expansionZoom ?? 0) - clusterZoom(z, map)));
      }
    },
  };

  return (
    <div data-testid="fleet-map-view">
      <Segmented
        style={{ marginBottom: 8 }}
        value={map}
        onChange={(value) => setMap(value as MapName)}
        options={[
          {
            value: 'world',
            label: <span data-testid="fleet-map-toggle-world">{t('dashboard.mapWorld')}</span>,
          },
          {
            value: 'china',
            label: <span data-testid="fleet-map-toggle-china">{t('dashboard.mapChina')}</span>,
          },
        ]}
      />
      {!query.data || ready !== map ? (
        <Spin style={{ display: 'block', margin: '160px auto' }} />
      ) : (
        <>
          <Space size={8} style={{ marginBottom: 8, marginLeft: 12 }} wrap>
            <Tag color="blue" data-testid="fleet-map-located" data-value={shown}>
              {t('dashboard.mapLocated', { count: shown })}
            </Tag>
            {elsewhere > 0 && (
              <Tag data-testid="fleet-map-elsewhere" data-value={elsewhere}>
                {t('dashboard.mapElsewhere', { count: elsewhere })}
              </Tag>
            )}
            <Tag color="green" data-testid="fleet-map-online" data-value={online}>
              {t('dashboard.mapOnline', { count: online })}
            </Tag>
            <Tag data-testid="fleet-map-unlocated" data-value={query.data.unlocated}>
              {t('dashboard.unlocated', { count: query.data.unlocated })}
            </Tag>
            <Typography.Text type="secondary">{t('dashboard.mapHint')}</Typography.Text>
          </Space>
          {devices.length === 0 ? (
            <Empty description={t('dashboard.noLocated')} />
          ) : (
            <div data-testid="fleet-map" data-points={points.length} data-panels={devices.length}>
              <Chart
                testId={`fleet-map-${map}`}
                height={560}
                option={option}
                onEvents={onEvents}
                onChartReady={(instance) => (chart.current = instance)}
              />
            </div>
          )}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('dashboard.attribution')}{' '}
            <a href="https://db-ip.com" target="_blank" rel="noreferrer">
              IP Geolocation by DB-IP
            </a>
          </Typography.Text>
        </>
      )}
      <DeviceDetailModal
        deviceId={detailId}
        open={detailId !== undefined}
        onClose={() => setDetailId(undefined)}
      />
    </div>
  );
}
