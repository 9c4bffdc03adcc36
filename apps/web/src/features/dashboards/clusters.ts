import Supercluster from 'supercluster';
import type { dashboard } from '@panelfleet/contract';

export interface ClusterPoint {
  longitude: number;
  latitude: number;
  count: number;
  online: number;
  /** Set for a single panel. */
  device?: dashboard.MapDevice;
  /** Set for a cluster: the zoom at which it splits. */
  expansionZoom?: number;
}

interface Props {
  device: dashboard.MapDevice;
  online: number;
}

/** Panels grouped by nearness for a zoom level (supercluster), each group counting its online panels. */
export class PanelClusters {
  private readonly index = new Supercluster<Props, { online: number }>({
    // Wide enough that the markers (markerSize, up to 48 px) of two groups never overlap on the
    // world map at 1440 px, where a cluster-zoom pixel is about 0.8 of a screen pixel.
    radius: 64,
    maxZoom: 16,
    map: (props) => ({ online: props.online }),
    reduce: (acc, props) => {
      acc.online += props.online;
    },
  });

  constructor(devices: dashboard.MapDevice[]) {
    this.index.load(
      devices.map((device) => ({
        type: 'Feature' as const,
        properties: { device, online: device.isOnline === '1' ? 1 : 0 },
        geometry: { type: 'Point' as const, coordinates: [device.longitude, device.latitude] },
      })),
    );
  }

  at(zoom: number): ClusterPoint[] {
    return this.index
      .getClusters([-180, -85, 180, 85], Math.max(0, Math.min(16, Math.round(zoom))))
      .map((f) => {
        const [longitude, latitude] = f.geometry.coordinates as [number, number];
        const p = f.properties as Partial<Props> & {
          cluster?: boolean;
          cluster_id?: number;
          point_count?: number;
          online: number;
        };
        if (p.cluster)
          return {
            longitude,
            latitude,
            count: p.point_count ?? 0,
            online: p.online,
            expansionZoom: this.index.getClusterExpansionZoom(p.cluster_id!),
          };
        return { longitude, latitude, count: 1, online: p.online, device: p.device! };
      });
  }
}

/** A marker's diameter in pixels: a lone panel 16, a group from 26 growing slowly with its count, at most 48. */
export const markerSize = (count: number) => (count === 1 ? 16 : Math.min(48, 26 + Math.log2(count) * 4));

/** Green when every panel of the point is online, grey when none is, orange in between. */
export const clusterColor = (point: ClusterPoint) =>
  point.online === point.count ? '#52c41a' : point.online === 0 ? '#8c8c8c' : '#fa8c16';
