import { useRef } from 'react';
import { deviceDetail } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { useLiveEvents } from '../../../live/useLive';
import { usePolled } from './usePolled';

const readDetail = (deviceId: number, signal: AbortSignal, quietFail: boolean) =>
  call(deviceDetail.selectByDeviceId, { deviceId }, { signal, quietFail }).then((reply) => reply.dataObject);

const readSettings = (deviceId: number, signal: AbortSignal, quietFail: boolean) =>
  call(deviceDetail.listDeviceSetting, { deviceId }, { signal, quietFail }).then((reply) => ({
    platform: reply.platform,
    rows: reply.listObject,
  }));

/**
 * The device as the panel last reported it while the modal is open: read again at once when the
 * live console reports its presence or a command result, else polled every 5 s.
 */
export function useDeviceDetail(deviceId: number | undefined, open: boolean) {
  const reloadRef = useRef<() => void>(undefined);
  const live = useLiveEvents((event) => {
    if ((event.type === 'presence' || event.type === 'command') && event.deviceId === deviceId)
      reloadRef.current?.();
    if (event.type === 'presenceReset') reloadRef.current?.();
  }, open);
  const { data, reload } = usePolled(deviceId, open, readDetail, live);
  reloadRef.current = reload;
  return { detail: data, reload };
}

export type PanelSettings = Awaited<ReturnType<typeof readSettings>>;

/** The settings the panel last reported (one row per section), polled with the detail. */
export function usePanelSettings(deviceId: number | undefined, open: boolean) {
  const reloadRef = useRef<() => void>(undefined);
  const live = useLiveEvents((event) => {
    if (event.type === 'command' && event.deviceId === deviceId && event.order === 'SETTINGS')
      reloadRef.current?.();
  }, open);
  const { data, reload } = usePolled(deviceId, open, readSettings, live);
  reloadRef.current = reload;
  return { settings: data, reload };
}
