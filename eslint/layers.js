// The layering rule as an allow-list, VS Code style: every file of src/ belongs to one layer, and a
// layer names the layers (and packages) it may import. Anything not listed is an error, so a new
// dependency direction is a decision made here, not an accident. Tests, benchmarks and scripts may
// import anything.
import { dirname, relative, resolve, sep } from 'node:path';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');

/** The layer of a repository path (posix separators), with the mechanism it belongs to. */
export function layerOf(path) {
  if (/\.test\.tsx?$/.test(path) || /\/test\//.test(path) || !path.startsWith('src/')) return { layer: 'free' };
  let m = /^src\/mechanisms\/([^/]+)\/(node|browser)\//.exec(path);
  if (m) return { layer: `mechanism-${m[2]}`, mechanism: m[1] };
  m = /^src\/mechanisms\/([^/]+)\/[^/]+$/.exec(path);
  if (m) return { layer: 'mechanism', mechanism: m[1] };
  if (/^src\/mechanisms\/node-registry\.ts$/.test(path)) return { layer: 'registry-node' };
  if (/^src\/mechanisms\/browser-registry\.tsx?$/.test(path)) return { layer: 'registry-browser' };
  if (/^src\/mechanisms\/[^/]+\.ts$/.test(path)) return { layer: 'registry' };
  if (path.startsWith('src/common/')) return { layer: 'common' };
  if (path.startsWith('src/io/')) return { layer: 'io' };
  if (path.startsWith('src/jobs/method-kit/')) return { layer: 'method-kit' };
  if (path.startsWith('src/jobs/')) return { layer: 'jobs' };
  if (path.startsWith('src/cli/')) return { layer: 'cli' };
  if (path.startsWith('src/main/')) return { layer: 'main' };
  if (path.startsWith('src/preload/')) return { layer: 'preload' };
  if (path.startsWith('src/renderer/components/') || path === 'src/renderer/format.ts') return { layer: 'renderer-kit' };
  if (path.startsWith('src/renderer/')) return { layer: 'renderer' };
  return { layer: 'unknown' };
}

// @duckdb: a devDependency of bench/duckdb-counts.ts only; the product never runs on DuckDB.
const NODE_PACKAGES = (p) => !/^(react|react-dom|@tanstack\/react-virtual|electron|@duckdb\/[^/]+)(\/|$)/.test(p);
const BROWSER_PACKAGES = (p) => /^(react|react-dom|react\/jsx-runtime|@tanstack\/react-virtual|zod)(\/|$)/.test(p);
const PURE_PACKAGES = (p) => p === 'zod';

/**
 * Who may import whom. `own` layers may be imported only from the same mechanism's folder;
 * `types` layers only with `import type` (erased at build: a shape, not a dependency at run time).
 */
export const ALLOWED = {
  common: { layers: ['common'], packages: PURE_PACKAGES },
  mechanism: { layers: ['common'], own: ['mechanism'], packages: PURE_PACKAGES },
  'mechanism-node': { layers: ['common', 'io', 'method-kit'], own: ['mechanism', 'mechanism-node'], packages: NODE_PACKAGES },
  'mechanism-browser': { layers: ['common', 'renderer-kit'], own: ['mechanism', 'mechanism-browser'], packages: BROWSER_PACKAGES },
  registry: { layers: ['common', 'mechanism', 'registry'], packages: PURE_PACKAGES },
  'registry-node': { layers: ['common', 'mechanism', 'mechanism-node', 'registry', 'method-kit'], packages: NODE_PACKAGES },
  'registry-browser': { layers: ['common', 'mechanism', 'mechanism-browser', 'registry', 'renderer-kit'], packages: BROWSER_PACKAGES },
  io: { layers: ['common', 'io'], packages: NODE_PACKAGES },
  'method-kit': { layers: ['common', 'io', 'method-kit'], types: ['mechanism', 'registry'], packages: NODE_PACKAGES },
  jobs: { layers: ['common', 'io', 'method-kit', 'jobs', 'registry', 'registry-node'], types: ['mechanism'], packages: NODE_PACKAGES },
  cli: { layers: ['common', 'io', 'jobs', 'cli', 'registry', 'method-kit'], packages: NODE_PACKAGES },
  main: { layers: ['common', 'io', 'jobs', 'main', 'registry', 'method-kit'], packages: (p) => p === 'electron' || NODE_PACKAGES(p) },
  preload: { layers: ['common', 'preload'], packages: (p) => p === 'electron' || p === 'zod' },
  // The environment-free registry (the mechanisms' metadata: plain-messages names a method's own fields),
  // never the browser registry, which imports the mechanisms' forms built on these components.
  'renderer-kit': { layers: ['common', 'renderer-kit', 'registry'], packages: BROWSER_PACKAGES },
  renderer: { layers: ['common', 'registry', 'registry-browser', 'renderer-kit', 'renderer'], packages: BROWSER_PACKAGES },
};

function repoPath(file) {
  return relative(ROOT, file).split(sep).join('/');
}

function resolveImport(fromFile, source) {
  const target = resolve(dirname(fromFile), source).replace(/\.js$/, '.ts');
  return repoPath(target);
}

export const layersRule = {
  meta: { type: 'problem', schema: [], messages: { forbidden: '{{from}} may not import {{to}}: {{why}}' } },
  create(context) {
    const file = repoPath(context.filename);
    const from = layerOf(file);
    if (from.layer === 'free') return {};
    const rule = ALLOWED[from.layer];
    const check = (node, source, typeOnly) => {
      if (typeof source !== 'string') return;
      const report = (to, why) => context.report({ node, messageId: 'forbidden', data: { from: `${file} (${from.layer})`, to, why } });
      if (!rule) return report(source, `${file} is in no layer; add it to eslint/layers.js`);
      if (!source.startsWith('.')) {
        const pkg = source.startsWith('node:') ? source : source;
        if (!rule.packages(pkg)) report(source, `the ${from.layer} layer may not use this package`);
        return;
      }
      const target = resolveImport(context.filename, source);
      const to = layerOf(target);
      if (rule.layers.includes(to.layer)) return;
      if (rule.own?.includes(to.layer) && to.mechanism === from.mechanism) return;
      if (typeOnly && rule.types?.includes(to.layer)) return;
      if (to.mechanism && from.mechanism && to.mechanism !== from.mechanism) return report(target, 'no mechanism imports another; move shared code to src/common');
      report(`${target} (${to.layer})`, `the ${from.layer} layer may import ${[...rule.layers, ...(rule.own ?? []).map((l) => `its own ${l}`)].join(', ')}`);
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value, node.importKind === 'type' || (node.specifiers.length > 0 && node.specifiers.every((s) => s.importKind === 'type'))),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value, node.exportKind === 'type'),
      ExportAllDeclaration: (node) => check(node, node.source.value, node.exportKind === 'type'),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value, false),
    };
  },
};

export default { rules: { layers: layersRule } };
