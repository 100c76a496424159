import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { CustosApi } from '../common/ipc/api.js';
import { createWebApi } from './api/web-api.js';
import { App } from './app.js';

declare global {
  interface Window {
    /** Set by the desktop preload; absent in the browser, where the loopback dev host serves the API. */
    readonly custos?: CustosApi;
  }
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App api={window.custos ?? createWebApi()} />
  </StrictMode>,
);
