import { Navigate, Route, Routes } from 'react-router';
import { RequireSession } from './auth/RequireSession';
import { UnauthorizedRedirect } from './auth/UnauthorizedRedirect';
import { DatasetPage } from './datasets/DatasetPage';
import { DatasetsPage } from './datasets/DatasetsPage';
import { AppLayout } from './layout/AppLayout';
import { OrgRoute } from './layout/OrgRoute';
import { DocumentsPage } from './pages/DocumentsPage';
import { DocumentTextPage } from './pages/DocumentTextPage';
import { HomeRedirect } from './pages/HomeRedirect';
import { LoginPage } from './pages/LoginPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { PromptPage } from './pages/PromptPage';
import { PromptsPage } from './pages/PromptsPage';
import { SchemaPage } from './pages/SchemaPage';
import { SchemasPage } from './pages/SchemasPage';
import { TagsPage } from './pages/TagsPage';
import { ProjectPage } from './projects/ProjectPage';
import { ProjectsPage } from './projects/ProjectsPage';
import { SettingsRoutes } from './settings/SettingsRoutes';

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
              <Route path="datasets" element={<DatasetsPage />} />
              <Route path="datasets/:datasetId" element={<DatasetPage />} />
              <Route path="projects" element={<ProjectsPage />} />
              <Route path="projects/:projectId" element={<ProjectPage />} />
              <Route path="schemas" element={<SchemasPage />} />
              <Route path="schemas/:schemaId" element={<SchemaPage />} />
              <Route path="prompts" element={<PromptsPage />} />
              <Route path="prompts/:promptId" element={<PromptPage />} />
              <Route path="tags" element={<TagsPage />} />
              <Route path="settings/*" element={<SettingsRoutes />} />
            </Route>
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Route>
      </Routes>
    </>
  );
}
