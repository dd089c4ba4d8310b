import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Writes a .gz and a .br copy beside every text file of the build, compressed once at the
 * highest levels, so the server can send them as they are (@fastify/static `preCompressed`)
 * instead of a megabyte of plain JavaScript or compressing on every request.
 */
function precompress(): Plugin {
  const compressible = /\.(js|css|html|svg|json|txt)$/;
  return {
    name: 'precompress',
    apply: 'build',
    writeBundle(options) {
      const outDir = options.dir ?? path.join(root, 'dist');
      const visit = (dir: string) => {
        for (const name of readdirSync(dir)) {
          const file = path.join(dir, name);
          if (statSync(file).isDirectory()) visit(file);
          else if (compressible.test(name) && statSync(file).size > 1024) {
            const content = readFileSync(file);
            writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
            writeFileSync(
              `${file}.br`,
              brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
            );
          }
        }
      };
      visit(outDir);
    },
  };
}

/** The web app builds to apps/web/dist, which the server serves; in development Vite proxies the API. */
export default defineConfig({
  root,
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Mantine is one large vendor chunk by nature; splitting it further gains nothing.
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      // The shared contracts build every screen's zod schemas at module level. Building one
      // has no effect but the schema, so one no screen of a chunk reads is left out of it
      // (the signed-in inbox loaded every feature's schemas before).
      treeshake: { manualPureFunctions: ['z'] },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://127.0.0.1:3000', changeOrigin: true },
      '/ws': { target: 'http://127.0.0.1:3000', ws: true, changeOrigin: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:3000', changeOrigin: true },
      '/ws': { target: 'http://127.0.0.1:3000', ws: true, changeOrigin: true },
    },
  },
});
