import { chunkLoadTimeoutMs } from '@app/contracts';
import { type ComponentType, createElement, use } from 'react';
import { withFeatureStrings } from '../shared/i18n';

/** A screen's code could not be loaded (network drop, or a deploy removed the old file). */
export class ChunkLoadError extends Error {
  override name = 'ChunkLoadError';
}

const chunkFailurePattern =
  /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS/i;

/** True for our own chunk errors and for the browsers' various texts for the same failure. */
export function isChunkLoadError(error: unknown): boolean {
  return (
    error instanceof ChunkLoadError || (error instanceof Error && chunkFailurePattern.test(error.message))
  );
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Loading the screen took longer than ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * A route component whose code loads on first use. The router calls `preload` during the
 * navigation (so the progress bar covers it); a failure is kept and thrown at render,
 * where the route's error view offers a reload. Unlike the router's own helper it never
 * reloads the page by itself: the user decides, and sees why.
 * The features' strings load beside the code, unless the screen shows only the bundled
 * ones (`strings: 'bundled'`: the shell's and the inbox's, see i18n.ts).
 */
export function lazyPage<Module extends Record<string, unknown>, Name extends keyof Module>(
  importer: () => Promise<Module>,
  exportName: Name,
  strings: 'bundled' | 'features' = 'features',
): Module[Name] & { preload: () => Promise<void> } {
  let component: ComponentType<object> | null = null;
  let failure: ChunkLoadError | null = null;
  let loading: Promise<void> | null = null;

  function load(): Promise<void> {
    if (component) return Promise.resolve();
    loading ??= withTimeout(
      strings === 'features' ? withFeatureStrings(importer()) : importer(),
      chunkLoadTimeoutMs,
    )
      .then((module) => {
        const found = module?.[exportName];
        if (typeof found !== 'function')
          throw new Error(`Screen ${String(exportName)} is missing from its chunk`);
        component = found as ComponentType<object>;
        failure = null;
      })
      .catch((error: unknown) => {
        failure = new ChunkLoadError(error instanceof Error ? error.message : String(error), {
          cause: error,
        });
      })
      .finally(() => {
        loading = null;
      });
    return loading;
  }

  // Created once per route at module load, so each screen keeps one stable component.
  function LazyPage(props: object) {
    if (failure) throw failure;
    if (!component) use(load());
    if (!component) throw failure ?? new ChunkLoadError(`Screen ${String(exportName)} did not load`);
    return createElement(component, props);
  }
  LazyPage.preload = load;
  return LazyPage as unknown as Module[Name] & { preload: () => Promise<void> };
}
