/** IPC messages between a benchmark and its device worker processes. */

/**
 * panel: the simulator's SimulatedPanel; bare: mqtt.js following the protocol; raw: the lean
 * load-generating client, which also executes brightness commands and acknowledges them (QoS 0).
 */
export type DeviceMode = 'panel' | 'bare' | 'raw';

export type WorkerRequest =
  /** Enroll `count` devices `${prefix}-NNNNN` from index `from` over HTTP (docs/device-protocol.md section 2). */
  | {
      op: 'enroll';
      mode: DeviceMode;
      serverUrl: string;
      secret: string;
      prefix: string;
      from: number;
      count: number;
      concurrency: number;
    }
  /** Connect every enrolled device to `mqttUrl`: subscribe to its command topic and announce presence. */
  | { op: 'connect'; mqttUrl: string; concurrency: number }
  | { op: 'disconnect' }
  /**
   * Bare or raw devices publish partial state reports (QoS 1, `inflight` unacknowledged each) for
   * `seconds`; raw devices with `reports` send exactly that many each instead, numbered
   * from + 1 .. from + reports (`ramUsed` carries the number).
   */
  | { op: 'ingest'; seconds: number; inflight: number; reports?: number; from?: number }
  | { op: 'stats' };

export type WorkerReply = { requestId: number } & (
  | { op: 'enrolled'; count: number; ms: number }
  | { op: 'connected'; ok: number; failed: number; ms: number; firstError?: string }
  | { op: 'disconnected' }
  | { op: 'ingested'; sent: number; last: Record<string, number> }
  | { op: 'stats'; executed: number; duplicates: number; errors: number }
  | { op: 'error'; message: string }
);
