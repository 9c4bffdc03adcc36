import { lazy, Suspense } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { ReplyEffects } from './api/ReplyEffects';
import { RuntimeConfigGate } from './app/RuntimeConfig';
import { FullPageSpin } from './app/FullPageSpin';
import { homeView, PATHS } from './paths';

// Every screen loads on demand so the first download stays small.
const LoginPage = lazy(() => import('./features/auth/LoginPage'));
const HomeLayout = lazy(() => import('./features/shell/HomeLayout'));
const ErrorPage = lazy(() => import('./features/errors/ErrorPage'));
const RegisterPage = lazy(() => import('./features/registration/RegisterPage'));
const ActivationPage = lazy(() => import('./features/registration/ActivationPage'));
const FindPasswordPage = lazy(() => import('./features/registration/FindPasswordPage'));
const ResetPasswordPage = lazy(() => import('./features/registration/ResetPasswordPage'));
const NetSpeedPage = lazy(() => import('./features/netSpeed/NetSpeedPage'));
const ActiveServerPage = lazy(() => import('./features/serverLicense/ActiveServerPage'));
const AntAppFrame = lazy(() => import('./app/AntAppFrame'));

const errorRoutes = [
  <Route key="page" path={PATHS.errorPage} element={<ErrorPage kind="page" />} />,
  <Route key="service" path={PATHS.errorService} element={<ErrorPage kind="service" />} />,
  <Route key="net" path={PATHS.errorNet} element={<ErrorPage kind="net" />} />,
];

export function App() {
  return (
    <BrowserRouter>
      <ReplyEffects />
      <Suspense fallback={<FullPageSpin />}>
        <RuntimeConfigGate errorRoutes={errorRoutes}>
          <Routes>
            <Route path="/" element={<LoginPage />} />
            <Route path={PATHS.login} element={<LoginPage />} />
            {/* Every screen but the sign-in page gets antd's App (App.useApp) from this frame. */}
            <Route element={<AntAppFrame />}>
              <Route path={`${PATHS.home}/*`} element={<HomeLayout />} />
              <Route path="/register" element={<RegisterPage />} />
              <Route path="/activePage" element={<ActivationPage />} />
              <Route path="/findPassword" element={<FindPasswordPage />} />
              <Route path="/forgetpassword" element={<ResetPasswordPage />} />
              <Route path="/netSpeed" element={<NetSpeedPage />} />
              <Route path={PATHS.active} element={<ActiveServerPage />} />
            </Route>
            {/* Legacy routes of spec 1: the older shell and the home page (the user's start view), the
                device map, the APK repository and the OTA tasks (the upgrade screen hosts them). */}
            <Route path="/index" element={<Navigate to={PATHS.home} replace />} />
            <Route path="/home1/*" element={<Navigate to={PATHS.home} replace />} />
            <Route path="/map" element={<Navigate to={homeView('Map')} replace />} />
            <Route path="/apk" element={<Navigate to={homeView('apk')} replace />} />
            <Route path="/taskList" element={<Navigate to={homeView('renew')} replace />} />
            {errorRoutes}
            <Route path="*" element={<Navigate to={PATHS.errorPage} replace />} />
          </Routes>
        </RuntimeConfigGate>
      </Suspense>
    </BrowserRouter>
  );
}
