/** Injected by the bundler from package.json; "dev" when run from sources. */
declare const __CUSTOS_VERSION__: string | undefined;
export const SOFTWARE_VERSION: string = typeof __CUSTOS_VERSION__ === 'string' ? __CUSTOS_VERSION__ : '0.1.0-dev';
