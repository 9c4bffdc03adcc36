import { Avatar, Empty, List, Progress, Typography } from 'antd';
import type { screenTime } from '@panelfleet/contract';

interface AppTimeListProps {
  apps: screenTime.RtpAppTime[];
  format(ms: number): string;
  emptyText: string;
}

const AVATAR_COLORS = [
  '#1677ff',
  '#13c2c2',
  '#52c41a',
  '#fa8c16',
  '#eb2f96',
  '#722ed1',
  '#2f54eb',
  '#faad14',
];

/** Panels report an icon name, not an image: each app gets a coloured initial, stable per package. */
function colorOf(packageName: string) {
  let hash = 0;
  for (const ch of packageName) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return AVATAR_COLORS[hash % AVATAR_COLORS.length];
}

/** Apps by foreground time, longest first, each with a bar against the longest. */
export function AppTimeList({ apps, format, emptyText }: AppTimeListProps) {
  if (!apps.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} />;
  const longest = apps[0]!.totalTime || 1;
  return (
    <List
      size="small"
      style={{ maxHeight: 300, overflowY: 'auto' }}
      dataSource={apps}
      data-testid="screen-time-apps"
      renderItem={(app) => (
        <List.Item data-testid="screen-time-app" data-package={app.packageName}>
          <List.Item.Meta
            avatar={
              <Avatar style={{ background: colorOf(app.packageName) }}>
                {app.appName.slice(0, 1).toUpperCase()}
              </Avatar>
            }
            title={<Typography.Text ellipsis>{app.appName}</Typography.Text>}
            description={
              <Progress
                percent={(app.totalTime / longest) * 100}
                status="normal"
                showInfo={false}
                size="small"
              />
            }
          />
          <Typography.Text
            strong
            style={{ minWidth: 110, textAlign: 'right' }}
            data-testid="screen-time-app-duration"
          >
            {format(app.totalTime)}
          </Typography.Text>
        </List.Item>
      )}
    />
  );
}
