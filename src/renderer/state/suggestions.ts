import type { ColumnInfo } from '../../common/ipc/api.js';
import type { Role } from './wizard-state.js';

export interface RoleSuggestion {
  readonly role: Role;
  readonly reason: string;
}

const IDENTIFIER_NAME = /(^|[_\s-])(id|ssn|nin|name|first.?name|last.?name|surname|e-?mail|phone|address|passport|record.?no|patient.?no)($|[_\s-])/i;
const SENSITIVE_NAME = /(diagnos|disease|illness|health|hiv|income|salary|wage|occupation|religio|ethnic|sexual|criminal|convict|drug)/i;

/**
 * A role suggestion the user sees with its reason and applies or ignores;
 * nothing is changed silently (the default role stays quasi-identifier).
 */
export function suggestRole(column: ColumnInfo, rows: number): RoleSuggestion | undefined {
  if (IDENTIFIER_NAME.test(column.name)) return { role: 'identifier', reason: 'the name looks like a direct identifier' };
  if (column.type === 'text' && column.distinct > 1000 && column.distinct >= 0.95 * (rows - column.missing)) {
    return { role: 'identifier', reason: 'almost every record has its own value' };
  }
  if (SENSITIVE_NAME.test(column.name)) return { role: 'sensitive', reason: 'the name suggests confidential content' };
  return undefined;
}
