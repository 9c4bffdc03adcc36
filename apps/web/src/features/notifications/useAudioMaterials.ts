import { useQuery } from '@tanstack/react-query';
import { materials } from '@panelfleet/contract';
import { call } from '../../api/client';
import { SESSION_QUERY_KEY } from '../../app/queryClient';

export const AUDIO_MATERIALS_KEY = [
  ...SESSION_QUERY_KEY,
  'materials',
  materials.MATERIAL_FILE_TYPES.audio,
] as const;

/** The company's audio materials (material list with fileType 2), loaded while `enabled`. */
export function useAudioMaterials(enabled: boolean) {
  return useQuery({
    queryKey: AUDIO_MATERIALS_KEY,
    queryFn: async () =>
      (await call(materials.listMaterials, { fileType: materials.MATERIAL_FILE_TYPES.audio })).listObject,
    enabled,
  });
}

/** Where the console's <audio> element reads a material: same origin, so the session cookie goes along. */
export const materialFileUrl = (materialId: number) =>
  `${materials.materialFile.path}?materialId=${materialId}`;
