import { useEffect, useRef, useState } from 'react';
import { Card, Col, Row, Statistic } from 'antd';
import { DesktopOutlined, TeamOutlined, UserOutlined, WifiOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { dashboard } from '@panelfleet/contract';
import { usePrefersReducedMotion } from '../../app/reducedMotion';

/**
 * Counts up to `value` over the spec's animation time (3.5 s), from where it stood. When the
 * operator's system asks for less motion, the value shows at once.
 */
function useCountUp(value: number, seconds: number = dashboard.DASHBOARD.counterAnimation) {
  const reducedMotion = usePrefersReducedMotion();
  const [shown, setShown] = useState(0);
  const from = useRef(0);
  useEffect(() => {
    if (reducedMotion) {
      from.current = value;
      return;
    }
    const start = performance.now();
    const origin = from.current;
    let frame = 0;
    const step = (now: number) => {
      const t = Math.min(1, (now - start) / (seconds * 1000));
      const eased = 1 - (1 - t) ** 3;
      const current = Math.round(origin + (value - origin) * eased);
      from.current = current;
      setShown(current);
      if (t < 1) frame = requestAnimationFrame(step);
    };
    frame = requestAnimationFrame(step);
    return () => cancelAnimationFrame(frame);
  }, [value, seconds, reducedMotion]);
  return reducedMotion ? value : shown;
}

function Counter({
  testId,
  title,
  value,
  icon,
}: {
  testId: string;
  title: string;
  value: number;
  icon: React.ReactNode;
}) {
  const shown = useCountUp(value);
  return (
    <Card size="small">
      <Statistic
        title={title}
        value={shown}
        prefix={icon}
        valueRender={(node) => (
          <span data-testid={testId} data-value={value}>
            {node}
          </span>
        )}
      />
    </Card>
  );
}

/** The four counters of both dashboards: panels, panels online, users, users online. */
export function Counters({ data }: { data: dashboard.DashboardData }) {
  const { t } = useTranslation();
  const items = [
    {
      testId: 'counter-devices',
      title: t('dashboard.deviceTotal'),
      value: data.deviceTotal,
      icon: <DesktopOutlined />,
    },
    {
      testId: 'counter-online-devices',
      title: t('dashboard.activeDeviceTotal'),
      value: data.activeDeviceTotal,
      icon: <WifiOutlined />,
    },
    {
      testId: 'counter-users',
      title: t('dashboard.userTotal'),
      value: data.userTotal,
      icon: <TeamOutlined />,
    },
    {
      testId: 'counter-online-users',
      title: t('dashboard.activeUserTotal'),
      value: data.activeUserTotal,
      icon: <UserOutlined />,
    },
  ];
  return (
    <Row gutter={[16, 16]}>
      {items.map((item) => (
        <Col key={item.testId} span={6}>
          <Counter {...item} />
        </Col>
      ))}
    </Row>
  );
}
