import { NetSpeedFrame } from './NetSpeedFrame';

/** The stand-alone /netSpeed page: the configured address over the whole window. */
export default function NetSpeedPage() {
  return (
    <div data-page="netSpeed" style={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <NetSpeedFrame height="100vh" />
    </div>
  );
}
