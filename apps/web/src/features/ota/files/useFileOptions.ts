import { useQuery } from '@tanstack/react-query';
import { ota } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { SESSION_QUERY_KEY } from '../../../app/queryClient';

const OPTIONS_KEY = [...SESSION_QUERY_KEY, 'otaFileOptions'] as const;

/** The choices of the upload and edit dialogs: enabled machine types and versions, the organisation's policies. */
export function useFileOptions(enabled: boolean) {
  const query = useQuery({
    queryKey: OPTIONS_KEY,
    enabled,
    staleTime: 0,
    queryFn: async () => {
      const [types, versions, rules] = await Promise.all([
        call(ota.listMachineTypeOptions, {}),
        call(ota.listOtaVersionOptions, {}),
        call(ota.listOtaRuleOptions, {}),
      ]);
      return {
        machineTypes: types.listObject.map((o) => ({ value: o.machineTypeId, label: o.machineType })),
        versions: versions.listObject.map((o) => ({ value: o.otaVersionId, label: o.otaVersion })),
        rules: rules.listObject.map((o) => ({ value: o.otaRuleId, label: o.name })),
      };
    },
  });
  return query.data ?? { machineTypes: [], versions: [], rules: [] };
}

/** "3,5" as the form sends it, from the ids chosen. */
export const idCsv = (ids: number[] | undefined) => (ids ?? []).join(',');

/** The ids of a comma-separated list as a file row carries them. */
export const idsOf = (csv: string) =>
  csv
    .split(',')
    .map((part) => Number(part.trim()))
    .filter((id) => Number.isInteger(id) && id > 0);
