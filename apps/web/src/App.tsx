import { Navigate, Route, Routes } from 'react-router';
import { RequireSession } from './auth/RequireSession';
import { UnauthorizedRedirect } from './auth/UnauthorizedRedirect';
import { AppLayout } from './layout/AppLayout';
import { OrgRoute } from './layout/OrgRoute';
import { DocumentsPage } from './pages/DocumentsPage';
import { DocumentTextPage } from './pages/DocumentTextPage';
import { HomeRedirect } from './pages/HomeRedirect';
import { LoginPage } from './pages/LoginPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { SettingsPage } from './pages/SettingsPage';

export function App() {
  return (
    <>
      <UnauthorizedRedirect />
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route element={<RequireSession />}>
          <Route element={<AppLayout />}>
            <Route index element={<HomeRedirect />} />
            <Route path="orgs/:orgId" element={<OrgRoute />}>
              <Route index element={<Navigate to="documents" replace />} />
              <Route path="documents" element={<DocumentsPage />} />
              <Route path="documents/:documentId" element={<DocumentTextPage />} />
              <Route path="settings" element={<SettingsPage />} />
            </Route>
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Route>
      </Routes>
    </>
  );
}
