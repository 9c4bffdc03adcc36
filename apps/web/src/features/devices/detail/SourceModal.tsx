import { useEffect, useState } from 'react';
import { Empty, Radio, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { machineTypes } from '@panelfleet/contract';
import { alreadyReported, call } from '../../../api/client';
import { useResetOnOpen } from '../../../lists/useResetOnOpen';
import { SendModal } from './SendModal';

type SourceOption = { name: string; sourceKey: string };

interface SourceModalProps {
  open: boolean;
  machineTypeId: number | null;
  current: string | null;
  onSend(sourceKey: string): Promise<boolean>;
  onClose(): void;
}

/** Signal source switch: the input sources of the panel's machine type (order 04). */
export function SourceModal({ open, machineTypeId, current, onSend, onClose }: SourceModalProps) {
  const { t } = useTranslation();
  const [sources, setSources] = useState<SourceOption[]>();
  const [chosen, setChosen] = useState<string>();
  useResetOnOpen(open, () => setChosen(undefined));

  useEffect(() => {
    if (!open || machineTypeId === null) return;
    const controller = new AbortController();
    call(machineTypes.sourcesOfMachineType, { machineTypeId }, { signal: controller.signal }).then(
      (reply) => setSources(reply.listObject),
      (error: unknown) => alreadyReported(error),
    );
    return () => controller.abort();
  }, [open, machineTypeId]);

  let body;
  if (machineTypeId === null) body = <Empty description={t('deviceDetail.noMachineType')} />;
  else if (!sources) body = <Spin />;
  else if (!sources.length) body = <Empty description={t('deviceDetail.noSources')} />;
  else
    body = (
      <Radio.Group
        value={chosen ?? current ?? undefined}
        onChange={(e) => setChosen(String(e.target.value))}
        style={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}
      >
        {sources.map((s) => (
          <Radio.Button key={s.sourceKey} value={s.sourceKey}>
            <span data-source={s.sourceKey}>{s.name}</span>
          </Radio.Button>
        ))}
      </Radio.Group>
    );

  return (
    <SendModal
      title={t('deviceDetail.sourceSwitch')}
      open={open}
      onClose={onClose}
      send={() => (chosen ? onSend(chosen) : undefined)}
      testId="source-modal"
      okTestId="source-ok"
      okDisabled={!chosen}
    >
      {body}
    </SendModal>
  );
}
