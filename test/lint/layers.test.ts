// The layering rule checked as configured (eslint.config.js with eslint/layers.js): each case is a
// one-line module linted as if it lived at a path of src/, so the rule's reading of paths and its
// allow-list are both under test. A rule that silently allowed everything would fail the "refused" cases.
import { ESLint } from 'eslint';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { layerOf } from '../../eslint/layers.js';

const eslint = new ESLint({ cwd: process.cwd() });

async function problems(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(process.cwd(), path) });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

const layered = (messages: string[]): string[] => messages.filter((m) => m.startsWith('custos/layers'));

describe('the layering rule (eslint/layers.js)', () => {
  const refused: [string, string, RegExp][] = [
    ['src/common/x.ts', "import { readTable } from '../io/input/read-table.js';\nexport const y = readTable;", /common layer may import common/],
    ['src/common/x.ts', "import React from 'react';\nexport const y = React;", /may not use this package/],
    ['src/mechanisms/dp-counts/x.ts', "import { definition } from '../beta-privacy/definition.js';\nexport const y = definition;", /no mechanism imports another/],
    ['src/mechanisms/dp-counts/x.ts', "import { readTable } from '../../io/input/read-table.js';\nexport const y = readTable;", /mechanism layer may import/],
    ['src/jobs/method-kit/x.ts', "import { definition } from '../../mechanisms/dp-counts/definition.js';\nexport const y = definition;", /method-kit layer may import/],
    ['src/renderer/x.tsx', "import { Form } from '../mechanisms/dp-counts/browser/wizard.js';\nexport const y = Form;", /renderer layer may import/],
    ['src/preload/x.ts', "import { runJob } from '../jobs/run-job.js';\nexport const y = runJob;", /preload layer may import/],
    ['src/io/x.ts', "import { runJob } from '../jobs/run-job.js';\nexport const y = runJob;", /io layer may import/],
    ['src/renderer/components/x.ts', "import { browserMechanismOf } from '../../mechanisms/browser-registry.js';\nexport const y = browserMechanismOf;", /renderer-kit layer may import/],
    ['src/elsewhere/x.ts', "import { z } from '../common/x.js';\nexport const y = z;", /is in no layer/],
    // DuckDB is a devDependency for a bench script (bench/duckdb-counts.ts): no product layer runs on it.
    ['src/jobs/x.ts', "import { DuckDBInstance } from '@duckdb/node-api';\nexport const y = DuckDBInstance;", /may not use this package/],
    ['src/mechanisms/dp-counts/node/x.ts', "import { DuckDBInstance } from '@duckdb/node-api';\nexport const y = DuckDBInstance;", /may not use this package/],
  ];
  for (const [path, code, why] of refused) {
    it(`refuses ${path}: ${code.split('\n')[0]}`, async () => {
      const found = layered(await problems(path, code));
      expect(found.length).toBe(1);
      expect(found[0]).toMatch(why);
    });
  }

  const allowed: [string, string][] = [
    ['src/common/x.ts', "import { z } from 'zod';\nimport { own } from './job/own.js';\nexport const y = [z, own];"],
    ['src/mechanisms/dp-counts/node/x.ts', "import { readTable } from '../../../io/input/read-table.js';\nimport { definition } from '../definition.js';\nexport const y = [readTable, definition];"],
    ['src/jobs/method-kit/x.ts', "import type { Definition } from '../../mechanisms/dp-counts/definition.js';\nexport type Y = Definition;"],
    ['src/jobs/x.ts', "import { nodeMechanisms } from '../mechanisms/node-registry.js';\nexport const y = nodeMechanisms;"],
    ['src/renderer/components/x.ts', "import { metadataOf } from '../../mechanisms/definitions.js';\nexport const y = metadataOf;"],
    ['src/common/x.test.ts', "import { readTable } from '../io/input/read-table.js';\nexport const y = readTable;"],
  ];
  for (const [path, code] of allowed) {
    it(`allows ${path}: ${code.split('\n')[0]}`, async () => {
      expect(layered(await problems(path, code))).toEqual([]);
    });
  }

  it('refuses a dynamic import it cannot read and Node globals in code that runs anywhere', async () => {
    expect((await problems('src/jobs/x.ts', 'export const load = (name: string) => import(name);')).join('\n')).toMatch(/dynamic import must name its module/);
    expect((await problems('src/common/x.ts', 'export const cwd = process.cwd();')).join('\n')).toMatch(/process is Node's/);
    expect((await problems('src/renderer/x.ts', 'export const b = Buffer.from("a");')).join('\n')).toMatch(/Buffer is Node's/);
  });

  it('puts every source file of src/ in a layer', () => {
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = `${dir}/${name}`;
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.tsx?$/.test(name)) files.push(path);
      }
    };
    walk('src');
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((f) => layerOf(f).layer === 'unknown')).toEqual([]);
  });
});
