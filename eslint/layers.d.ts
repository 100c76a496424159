// Types for the tests that import the layering rule (eslint/layers.js is plain JavaScript, loaded by ESLint).
export function layerOf(path: string): { layer: string; mechanism?: string };
export const ALLOWED: Record<string, { layers: string[]; own?: string[]; types?: string[]; packages: (name: string) => boolean }>;
declare const plugin: { rules: Record<string, unknown> };
export default plugin;
