import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Navigate, Route, Routes } from 'react-router';
import { useTranslation } from 'react-i18next';
import { auth } from '@panelfleet/contract';
import { ApiError, call, errorPathFor } from '../api/client';
import { FullPageSpin } from './FullPageSpin';

type RuntimeConfig = auth.RuntimeConfig;

const RuntimeConfigContext = createContext<RuntimeConfig | null>(null);

export function useRuntimeConfig(): RuntimeConfig {
  const config = useContext(RuntimeConfigContext);
  if (!config) throw new Error('useRuntimeConfig outside RuntimeConfigGate');
  return config;
}

/** The special-user deployment (role flag 1) shows its configured title instead of ours. */
export function useAppTitle(): string {
  const config = useRuntimeConfig();
  const { t } = useTranslation();
  return config.roleFlag === 1 && config.title ? config.title : t('app.title');
}

function DocumentTitle() {
  const title = useAppTitle();
  useEffect(() => {
    document.title = title;
  }, [title]);
  return null;
}

/**
 * Loads the runtime configuration once before any console route renders. If it cannot be
 * loaded only the error pages remain reachable (the client has already navigated to one).
 */
export function RuntimeConfigGate({
  errorRoutes,
  children,
}: {
  errorRoutes: ReactNode;
  children: ReactNode;
}) {
  const query = useQuery({
    queryKey: ['runtimeConfig'],
    queryFn: () => call(auth.getRuntimeConfig, {}),
    staleTime: Infinity,
  });

  if (query.isError) {
    const target = errorPathFor(query.error instanceof ApiError ? query.error.kind : 'serverError');
    return (
      <Routes>
        {errorRoutes}
        <Route path="*" element={<Navigate to={target} replace />} />
      </Routes>
    );
  }
  if (!query.data) return <FullPageSpin />;
  return (
    <RuntimeConfigContext.Provider value={query.data.dataObject}>
      <DocumentTitle />
      {children}
    </RuntimeConfigContext.Provider>
  );
}
