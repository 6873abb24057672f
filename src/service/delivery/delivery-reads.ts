/**
 * The seam between the delivery routes (view, assignment, stream) and what they read: a
 * client key, and an app's live view with its ETag. Kept apart so that the stream and the
 * plain GETs read through one cache, which store changes keep fresh (`LiveChanges`).
 */
import type { DeliveryView } from '../../contract/delivery';
import type { ClientKeyRecord } from '../store/records';

/** A view and the strong ETag naming it. */
export interface AppViewRead {
  readonly view: DeliveryView;
  readonly etag: string;
}

export interface DeliveryReads {
  /** The client key with this value, unless unknown or revoked. */
  clientKey(key: string): Promise<ClientKeyRecord | undefined>;
  /** The app's view in the account's live config; undefined without such an app. */
  appView(accountId: string, appId: string): Promise<AppViewRead | undefined>;
  /** Changes whenever the account's views or keys may have (`Store.getStreamStamp`). */
  changeStamp(accountId: string): Promise<string>;
}
