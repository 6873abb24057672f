/**
 * `POST /config/edit`: the person's edit as operations, with the revision it was made on.
 * Sent as If-Match, a newer revision answers 412 and nothing changes; sent as
 * `base_revision` in the body, the server merges the edit with the edits since, or answers
 * 409 `edit_conflict` naming each field both changed.
 */
import type { ConfigEditRequest, ConfigEditResult } from '../../contract/config-edit';
import { etagOf } from '../../contract/configs';
import type { EditConflict } from '../../contract/problem';
import { ApiProblem, callApi } from '../lib/api-client';
import { configEndpoints } from '../../contract/config-endpoints';

export interface EditConfigInput {
  /** With `base_revision` to merge; then `revision` must be null. */
  readonly request: ConfigEditRequest;
  /** The target's revision when known: sent as If-Match. */
  readonly revision: number | null;
  /**
   * The target's id, when the request does not name it (the live config): If-Match then
   * names that config, so an edit never lands on another config that went live meanwhile.
   */
  readonly id?: string;
}

export interface EditConfigOutput {
  /** With the edited config's summary (its revision afterwards) and the applied ranges. */
  readonly result: ConfigEditResult;
}

export async function editConfig({
  request,
  revision,
  id,
}: EditConfigInput): Promise<EditConfigOutput> {
  const ifMatch =
    revision === null ? null : id === undefined ? `"${revision}"` : etagOf(id, revision);
  const response = await callApi(configEndpoints.editConfig, {
    body: request,
    headers: ifMatch === null ? {} : { 'If-Match': ifMatch },
  });
  return { result: response.data };
}

/** The fields an edit sent with `base_revision` and a newer edit both changed; null: not that. */
export function editConflictsOf(error: unknown): readonly EditConflict[] | null {
  return error instanceof ApiProblem && error.status === 409 && error.code === 'edit_conflict'
    ? error.conflicts
    : null;
}
