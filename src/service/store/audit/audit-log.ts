/** The audit log: each change made through the API adds its entry in the change's transaction. */
import type { AuditRecord } from '../records';
import { insertInto, run, valuesOf, type Op } from '../sql/sql';

const AUDIT_COLUMNS = ['account_id', 'at', 'action', 'actor', 'target_id', 'detail'];
const INSERT_AUDIT = insertInto('audit_log', AUDIT_COLUMNS);

export function addAudit(entry: AuditRecord): Op<number> {
  return run(
    INSERT_AUDIT,
    ...valuesOf({ ...entry, detail: JSON.stringify(entry.detail) }, AUDIT_COLUMNS),
  );
}
