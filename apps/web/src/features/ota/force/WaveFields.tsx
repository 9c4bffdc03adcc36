import { Form, InputNumber, Radio, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { ota } from '@panelfleet/contract';

export interface WaveValues {
  waveMode: (typeof ota.WAVE_MODES)[number];
  firstWave?: number;
  waveStep?: number;
  successShare: number;
  failureShare: number;
  minResults: number;
  allowDowngrade: boolean;
  keepAdding?: boolean;
  maxDownloads?: number;
}

export const WAVE_INITIAL: WaveValues = {
  waveMode: 'none',
  successShare: ota.WAVE_DEFAULTS.successShare,
  failureShare: ota.WAVE_DEFAULTS.failureShare,
  minResults: ota.WAVE_DEFAULTS.minResults,
  allowDowngrade: false,
};

/**
 * Staged rollout (beyond the spec): all at once, or a first wave of n panels (or n%) and then
 * steps; the next wave starts at a success share, the task pauses itself past a failure share.
 */
export function WaveFields() {
  const { t } = useTranslation();
  const mode = Form.useWatch<WaveValues['waveMode']>('waveMode');
  const unit = mode === 'percent' ? '%' : t('ota.force.panels');
  const max = mode === 'percent' ? 100 : 1_000_000;
  return (
    <>
      <Form.Item name="waveMode" label={t('ota.force.waveMode')}>
        <Radio.Group
          data-testid="force-wave-mode"
          options={ota.WAVE_MODES.map((value) => ({ value, label: t(`ota.force.waveModes.${value}`) }))}
        />
      </Form.Item>
      {mode !== 'none' && (
        <>
          <Form.Item label={t('ota.force.waves')} required>
            <Space wrap>
              <Form.Item
                name="firstWave"
                noStyle
                rules={[{ required: true, message: t('ota.force.firstWaveNull') }]}
              >
                <InputNumber
                  data-testid="force-first-wave"
                  min={1}
                  max={max}
                  addonBefore={t('ota.force.firstWave')}
                  addonAfter={unit}
                />
              </Form.Item>
              <Form.Item name="waveStep" noStyle>
                <InputNumber
                  data-testid="force-wave-step"
                  min={1}
                  max={max}
                  addonBefore={t('ota.force.waveStep')}
                  addonAfter={unit}
                />
              </Form.Item>
            </Space>
          </Form.Item>
          <Form.Item label={t('ota.force.thresholds')} extra={t('ota.force.thresholdsHint')}>
            <Space wrap>
              <Form.Item name="successShare" noStyle>
                <InputNumber
                  data-testid="force-success-share"
                  min={1}
                  max={100}
                  addonBefore={t('ota.force.successShare')}
                  addonAfter="%"
                />
              </Form.Item>
              <Form.Item name="failureShare" noStyle>
                <InputNumber
                  data-testid="force-failure-share"
                  min={1}
                  max={100}
                  addonBefore={t('ota.force.failureShare')}
                  addonAfter="%"
                />
              </Form.Item>
              <Form.Item name="minResults" noStyle>
                <InputNumber
                  data-testid="force-min-results"
                  min={1}
                  max={100000}
                  addonBefore={t('ota.force.minResults')}
                />
              </Form.Item>
            </Space>
          </Form.Item>
        </>
      )}
      <Form.Item
        name="maxDownloads"
        label={t('ota.force.maxDownloads')}
        extra={t('ota.force.maxDownloadsHint')}
      >
        <InputNumber data-testid="force-max-downloads" min={1} max={100000} />
      </Form.Item>
      <Form.Item name="allowDowngrade" label={t('ota.force.allowDowngrade')} valuePropName="checked">
        <Switch data-testid="force-allow-downgrade" />
      </Form.Item>
      <Form.Item
        name="keepAdding"
        label={t('labels.keepAdding.label')}
        extra={t('labels.keepAdding.hint')}
        valuePropName="checked"
      >
        <Switch data-testid="force-keep-adding" />
      </Form.Item>
    </>
  );
}
