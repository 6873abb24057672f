/**
 * The text a config had at one of its revisions. Older texts of a draft are not stored: as a
 * merge rebuilds its base, the text is the one the draft was copied from with its edits
 * replayed, here as the stretches of text each edit's history entry says it changed.
 */
import type { ConfigRevision } from '../../contract/configs';
import { applyTextChanges } from '../../configs/text-edit';
import type { Principal } from '../store/records';
import type { Store } from '../store/store';
import { editsAfter } from './edit-history';
import { EditRefused } from './edit-refusals';
import { notFound, Refused } from './refusals';

export async function configRevision(
  store: Store,
  principal: Principal,
  id: string,
  revision: number,
): Promise<ConfigRevision> {
  const accountId = principal.account.id;
  const row = await store.getConfig(accountId, id);
  if (!row) throw notFound(`The config ${id}`);
  if (revision > row.revision) throw notFound(`Revision ${revision} of the config ${id}`);
  if (revision === row.revision) return { id, revision, yaml: row.yaml };
  const gone = () =>
    new Refused(
      'conflict',
      `The config ${id} cannot be rebuilt as it was at revision ${revision}: its edits up to it are no longer all in the history`,
    );
  const reads = {
    getConfig: (configId: string) => store.getConfig(accountId, configId),
    historyAfter: (configId: string, after: number) =>
      store.historyAfter(accountId, configId, after),
  };
  const edits = await editsAfter(reads, row, 0).catch((error: unknown) => {
    throw error instanceof EditRefused ? gone() : error;
  });
  const copiedFrom =
    row.base_config_id === null ? undefined : await store.getConfig(accountId, row.base_config_id);
  if (!copiedFrom) throw gone();
  let text = copiedFrom.yaml;
  for (const [operationIndex, edit] of edits.slice(0, revision).entries()) {
    if (edit.textChanges === undefined) throw gone();
    const next = applyTextChanges(text, { changes: edit.textChanges, operationIndex });
    if (!next.ok) throw gone();
    text = next.text;
  }
  return { id, revision, yaml: text };
}
