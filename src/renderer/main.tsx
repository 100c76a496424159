import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { CustosApi } from '../preload/api.js';

declare global {
  interface Window {
    readonly custos?: CustosApi;
  }
}

/** Placeholder shell; the wizard arrives with the desktop-app issue. */
function App() {
  return (
    <main style={{ font: '15px system-ui, sans-serif', padding: 32 }}>
      <h1>Custos</h1>
      <p>Offline workbench for protected releases. Use the command line (custos inspect | assess | run) until the wizard lands.</p>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
