import { App as AntApp } from 'antd';
import { Outlet } from 'react-router';

/**
 * antd's App (its message, notification and modal hooks for `App.useApp`) around every screen but
 * the sign-in page, which uses none of them: a chunk of its own, so the first screen does not wait
 * for antd's modal and notification code.
 */
export default function AntAppFrame() {
  return (
    <AntApp>
      <Outlet />
    </AntApp>
  );
}
