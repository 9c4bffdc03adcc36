import { useRef } from 'react';
import { device } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { usePagedList } from '../../../lists/usePagedList';

const LIST_NAME = 'devices';

/**
 * The device list's pages. Every reply carries a cursor (the positions of its first and last
 * rows); the next request sends it back, so "next", "previous" and nearby pages are keyset reads
 * on the server while the pager still shows page numbers.
 */
export function useDeviceList() {
  const cursor = useRef<string | undefined>(undefined);
  return usePagedList(
    LIST_NAME,
    async (start, size, deviceName) => {
      const reply = await call(device.listDevices, { start, size, deviceName, cursor: cursor.current });
      cursor.current = reply.cursor;
      return reply;
    },
    { quickJumper: true },
  );
}
