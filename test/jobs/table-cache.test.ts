import { mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TableCache } from '../../src/jobs/service/table-cache.js';

const dir = mkdtempSync(join(tmpdir(), 'custos-cache-'));

describe('the long-lived worker reads a file once per way of reading it', () => {
  it('reuses a table for the same file read the same way, and reads again when the file or the reading changes', () => {
    const path = join(dir, 'people.csv');
    writeFileSync(path, 'age;sex;diagnosis\n30;F;flu\n40;M;NA\n40;M;cold;extra\n');
    const cache = new TableCache();
    const first = cache.read(path, { missing: [''], onBadRow: 'skip' });
    expect(first.delimiter).toBe(';');
    // The delimiter that was detected, asked for explicitly: the same reading.
    expect(cache.read(path, { delimiter: ';', missing: [''], onBadRow: 'skip' })).toBe(first);
    // Other missing codes, another delimiter, or stopping at a bad row the skip-reading dropped: read again.
    expect(cache.read(path, { missing: ['', 'NA'], onBadRow: 'skip' })).not.toBe(first);
    expect(cache.read(path, { delimiter: ',', missing: [''], onBadRow: 'skip' }).table.columns).toHaveLength(1);
    expect(() => cache.read(path, { missing: [''], onBadRow: 'error' })).toThrow(/people\.csv:4:/);
    // The file changed on disk: never the old table.
    writeFileSync(path, 'age;sex;diagnosis\n31;F;flu\n');
    utimesSync(path, new Date(), new Date(Date.now() + 5000));
    const changed = cache.read(path, { missing: [''], onBadRow: 'skip' });
    expect(changed.table.rowCount).toBe(1);
    expect(changed).not.toBe(first);
  });

  it('a reading that skipped nothing serves a run that stops at bad rows', () => {
    const path = join(dir, 'clean.csv');
    writeFileSync(path, 'a,b\n1,2\n3,4\n');
    const cache = new TableCache();
    const skipped = cache.read(path, { missing: [''], onBadRow: 'skip' });
    expect(cache.read(path, { missing: [''], onBadRow: 'error' })).toBe(skipped);
  });
});
