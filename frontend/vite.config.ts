import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompiledMilkdropPresets } from './build/milkdropPresets';

// In development Vite serves the app and forwards the API and live connection to the gateway.
const gateway = process.env.GATEWAY_URL ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react(), precompiledMilkdropPresets()],
  // The gateway replaces this with each page response's CSP nonce (services/gateway/src/security).
  html: { cspNonce: 'STEMDECK_CSP_NONCE' },
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: {
      '/api': { target: gateway },
      '/ws': { target: gateway.replace(/^http/, 'ws'), ws: true },
    },
  },
  build: { outDir: 'dist', sourcemap: true, chunkSizeWarningLimit: 1500 },
});
