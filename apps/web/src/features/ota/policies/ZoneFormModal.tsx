import { DatePicker, Form, Input, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { otaRules, TIME_ZONES, truncateToWidth } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { CONTRACT_NS } from '../../../i18n';
import { FormModal } from '../../../lists/FormModal';

type Zone = ReturnType<typeof otaRules.otaRuleZone.parse>;

interface ZoneValues {
  timeZone: string;
  startTime: Dayjs;
  remark?: string;
}

/** The zone the add dialog starts on (spec 3 section 9: default selection 1). */
const DEFAULT_ZONE = TIME_ZONES[1];
const LOCAL = 'YYYY-MM-DD HH:mm:ss';

/** Add (`null` zone) or edit a time-zone window: the zone and the local start time there. */
export function ZoneFormModal({
  ruleId,
  zone,
  onClose,
  onSaved,
}: {
  ruleId: number;
  zone: Zone | null | undefined;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ZoneValues>();
  const required = (key: string) => [{ required: true, message: t(key, { ns: CONTRACT_NS }) }];
  return (
    <FormModal<ZoneValues>
      title={zone ? t('ota.policy.zoneEditTitle') : t('ota.policy.zoneAddTitle')}
      open={zone !== undefined}
      form={form}
      width={600}
      initialValues={
        zone
          ? { timeZone: zone.timeZone, startTime: dayjs(zone.startTime, LOCAL), remark: zone.remark }
          : { timeZone: DEFAULT_ZONE }
      }
      submit={(v) => {
        const values = { timeZone: v.timeZone, startTime: v.startTime.format(LOCAL), remark: v.remark ?? '' };
        return zone
          ? call(otaRules.updateOtaRuleZone, {
              otaRuleId: ruleId,
              otaRuleListId: zone.otaRuleListId,
              ...values,
            })
          : call(otaRules.addOtaRuleZone, { otaRuleId: ruleId, ...values });
      }}
      onClose={onClose}
      onSaved={onSaved}
      testId="zone-form"
    >
      <Form.Item
        name="timeZone"
        label={t('ota.policy.timeZone')}
        rules={required('otaRule.timeZoneNull')}
        required
      >
        <Select
          data-testid="zone-time-zone"
          showSearch
          options={TIME_ZONES.map((z) => ({ value: z, label: z }))}
        />
      </Form.Item>
      <Form.Item
        name="startTime"
        label={t('ota.policy.startTime')}
        rules={required('otaRule.timeNull')}
        required
        extra={t('ota.policy.startTimeHint')}
      >
        <DatePicker data-testid="zone-start-time" showTime format={LOCAL} />
      </Form.Item>
      <Form.Item
        name="remark"
        label={t('ota.policy.remark')}
        normalize={(v: string) => truncateToWidth(v ?? '', otaRules.RULE_REMARK_MAX)}
      >
        <Input.TextArea data-testid="zone-remark" rows={2} />
      </Form.Item>
    </FormModal>
  );
}
