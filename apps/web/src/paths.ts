/** Console paths that more than one module needs. */
export const PATHS = {
  login: '/login',
  active: '/active',
  home: '/home',
  errorPage: '/errorPage',
  errorService: '/errorService',
  errorNet: '/errorNet',
} as const;

export const homeView = (view: string) => `${PATHS.home}/${view}`;
