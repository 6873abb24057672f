/**
 * `POST /config/edit`: the person's edit as operations, with `If-Match` naming the revision
 * the edit was made on (a newer one answers 412 and nothing changes).
 */
import type { ConfigEditRequest, ConfigEditResult } from '../../../../contract/config-edit';
import { configOfEtag, etagOf } from '../../../../contract/configs';
import { callApi } from '../../../lib/api-client';

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
  readonly result: ConfigEditResult;
  /** The config's revision afterwards (the body's, else the ETag's). */
  readonly revision: number | null;
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
  const etag = response.headers.get('ETag');
  return {
    result: response.data,
    revision:
      response.data.revision ?? (etag === null ? null : (configOfEtag(etag)?.revision ?? null)),
  };
}
