import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import '@fontsource-variable/inter';
import { App } from './App';
import { queryClient } from './api/queryClient';
import './index.css';
import { startTheme } from './theme/theme';

const rootElement = document.getElementById('root');
if (!rootElement) {
  throw new Error('index.html has no #root element.');
}

startTheme();
createRoot(rootElement).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
