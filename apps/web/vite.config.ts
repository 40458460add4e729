import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { viteStaticCopy } from 'vite-plugin-static-copy';

const apiServer = 'http://127.0.0.1:8700';

/**
 * pdf.js fetches these while it renders: the standard fonts that PDFs name without embedding
 * (Helvetica, Times...), the CMaps of CJK text, the decoders of JBIG2 and JPEG 2000 scans and
 * ICC colour profiles. They are served next to the app, never from a CDN.
 */
const pdfjsRoot = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const PDFJS_DATA = ['standard_fonts', 'cmaps', 'wasm', 'iccs'];

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    viteStaticCopy({
      targets: PDFJS_DATA.map((folder) => ({
        src: `${pdfjsRoot}/${folder}/*`,
        dest: `pdfjs/${folder}`,
        rename: { stripBase: true },
      })),
    }),
  ],
  build: {
    outDir: 'dist',
  },
  server: {
    proxy: {
      // ws: the agent panel's WebSocket (/v0/orgs/{org}/agent/ws) goes through too.
      '/v0': { target: apiServer, ws: true },
      '/health': apiServer,
    },
  },
});
