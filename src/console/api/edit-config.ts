/**
 * `POST /config/edit`: the person's edit as operations, with `If-Match` naming the revision
 * the edit was made on (a newer one answers 412 and nothing changes).
 */
import type { ConfigEditRequest, ConfigEditResult } from '../../contract/config-edit';
import { etagOf } from '../../contract/configs';
import { callApi } from '../lib/api-client';

export interface EditConfigInput {
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
  const response = await callApi('editConfig', {
    body: request,
    headers: ifMatch === null ? {} : { 'If-Match': ifMatch },
  });
  return { result: response.data };
}
