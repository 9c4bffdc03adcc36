import { useQuery } from '@tanstack/react-query';
import { materials } from '@panelfleet/contract';
import { call } from '../../api/client';
import { SESSION_QUERY_KEY } from '../../app/queryClient';

export const materialsKey = (fileType: number) => [...SESSION_QUERY_KEY, 'materials', fileType] as const;

/** The company's materials of one file type (1 image, 2 audio, 3 video), loaded while `enabled`. */
export function useMaterials(fileType: 1 | 2 | 3, enabled: boolean) {
  return useQuery({
    queryKey: materialsKey(fileType),
    queryFn: async () => (await call(materials.listMaterials, { fileType })).listObject,
    enabled,
  });
}

export const thumbnailUrl = (materialId: number) =>
  `${materials.materialThumbnail.path}?materialId=${materialId}`;
