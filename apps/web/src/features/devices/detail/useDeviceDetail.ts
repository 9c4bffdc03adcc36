import { deviceDetail } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { usePolled } from './usePolled';

const readDetail = (deviceId: number, signal: AbortSignal, quietFail: boolean) =>
  call(deviceDetail.selectByDeviceId, { deviceId }, { signal, quietFail }).then((reply) => reply.dataObject);

const readSettings = (deviceId: number, signal: AbortSignal, quietFail: boolean) =>
  call(deviceDetail.listDeviceSetting, { deviceId }, { signal, quietFail }).then((reply) => ({ platform: reply.platform, rows: reply.listObject }));

/** The device as the panel last reported it, polled every 5 s while the modal is open. */
export function useDeviceDetail(deviceId: number | undefined, open: boolean) {
  const { data, reload } = usePolled(deviceId, open, readDetail);
  return { detail: data, reload };
}

export type PanelSettings = Awaited<ReturnType<typeof readSettings>>;

/** The settings the panel last reported (one row per section), polled with the detail. */
export function usePanelSettings(deviceId: number | undefined, open: boolean) {
  const { data, reload } = usePolled(deviceId, open, readSettings);
  return { settings: data, reload };
}
