import { Form, InputNumber, Radio, Select, Slider, Space, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { device } from '@panelfleet/contract';

interface PictureEditorProps {
  value: device.PictureSetting;
  onChange(next: device.PictureSetting): void;
}

/**
 * The picture of one input (spec 2 source setting): Image settings (picture mode, its colour
 * temperature, and the five levels: editable only in Custom, the fixed values of the other modes
 * shown read-only) and Display settings (aspect ratio, colour range).
 */
export function PictureEditor({ value, onChange }: PictureEditorProps) {
  const { t } = useTranslation();
  const mode = value.pictureModeType;
  const custom = mode === 'custom';
  const levels = device.shownLevels(value);
  const setMode = (pictureModeType: device.PictureMode) => onChange({ ...value, pictureModeType });
  const setColorTemp = (colorTemp: (typeof device.COLOR_TEMPS)[number]) =>
    onChange({
      ...value,
      imageSettings: { ...value.imageSettings, [mode]: { ...value.imageSettings[mode], colorTemp } },
    });
  const setLevel = (level: device.PictureLevel, n: number | null) => {
    if (n === null || !custom) return;
    onChange({
      ...value,
      imageSettings: {
        ...value.imageSettings,
        custom: { ...value.imageSettings.custom, [level]: Math.round(Math.min(100, Math.max(0, n))) },
      },
    });
  };

  const image = (
    <Form layout="horizontal" labelCol={{ span: 6 }} wrapperCol={{ span: 18 }} data-testid="picture-image">
      <Form.Item label={t('picture.mode')}>
        <Radio.Group
          optionType="button"
          buttonStyle="solid"
          value={mode}
          onChange={(e) => setMode(e.target.value as device.PictureMode)}
          data-testid="picture-mode"
          options={device.PICTURE_MODES.map((m) => ({
            value: m,
            label: <span data-mode={m}>{t(`picture.modes.${m}`)}</span>,
          }))}
        />
      </Form.Item>
      <Form.Item label={t('picture.colorTemp')}>
        <Select
          style={{ width: 160 }}
          value={value.imageSettings[mode].colorTemp}
          onChange={setColorTemp}
          data-testid="picture-colorTemp"
          options={device.COLOR_TEMPS.map((c) => ({ value: c, label: t(`picture.colorTemps.${c}`) }))}
        />
      </Form.Item>
      {device.PICTURE_LEVELS.map((level) => (
        <Form.Item key={level} label={t(`picture.${level}`)} style={{ marginBottom: 8 }}>
          <Space style={{ width: '100%' }} align="center">
            <Slider
              style={{ width: 300 }}
              min={0}
              max={100}
              disabled={!custom}
              value={levels[level]}
              onChange={(n) => setLevel(level, n)}
              data-testid={`picture-${level}`}
            />
            <span data-testid={`picture-${level}-input`}>
              <InputNumber
                size="small"
                min={0}
                max={100}
                precision={0}
                disabled={!custom}
                value={levels[level]}
                onChange={(n) => setLevel(level, n)}
              />
            </span>
          </Space>
        </Form.Item>
      ))}
      {!custom && (
        <Typography.Text type="secondary" data-testid="picture-fixed-hint">
          {t('picture.fixedHint')}
        </Typography.Text>
      )}
    </Form>
  );

  const display = (
    <Form layout="horizontal" labelCol={{ span: 6 }} wrapperCol={{ span: 18 }} data-testid="picture-display">
      <Form.Item label={t('picture.aspectRatio')}>
        <Radio.Group
          optionType="button"
          value={value.displaySettings.aspectRatio}
          onChange={(e) =>
            onChange({ ...value, displaySettings: { ...value.displaySettings, aspectRatio: e.target.value } })
          }
          data-testid="picture-aspectRatio"
          options={device.ASPECT_RATIOS.map((r) => ({ value: r, label: <span data-ratio={r}>{r}</span> }))}
        />
      </Form.Item>
      <Form.Item label={t('picture.colorRange')}>
        <Radio.Group
          optionType="button"
          value={value.displaySettings.colorRange}
          onChange={(e) =>
            onChange({ ...value, displaySettings: { ...value.displaySettings, colorRange: e.target.value } })
          }
          data-testid="picture-colorRange"
          options={device.COLOR_RANGES.map((r) => ({
            value: r,
            label: <span data-range={r}>{r === 'auto' ? t('picture.auto') : r}</span>,
          }))}
        />
      </Form.Item>
    </Form>
  );

  return (
    <Tabs
      items={[
        {
          key: 'image',
          label: <span data-testid="picture-tab-image">{t('picture.imageTab')}</span>,
          children: image,
        },
        {
          key: 'display',
          label: <span data-testid="picture-tab-display">{t('picture.displayTab')}</span>,
          children: display,
        },
      ]}
    />
  );
}
