import type { OpenedFile } from '../../src/common/ipc/api.js';

/** An opened 100-record CSV without rejected rows, as the host describes it, for wizard tests that supply their own columns. */
export const SURVEY_FILE: Omit<OpenedFile, 'columns'> = {
  fileId: '00000000-0000-4000-8000-000000000000',
  path: '/data/survey.csv',
  name: 'survey.csv',
  rows: 100,
  bytes: 1000,
  sha256: 'a'.repeat(64),
  format: 'csv',
  rejected: [],
  rejectedCount: 0,
};
