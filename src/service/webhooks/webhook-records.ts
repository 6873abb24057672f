/** Moved to domain/webhook-records.ts; kept for the stores' imports until they name it there. */
export { deliveriesOf, ENDPOINT_DELETED_ERROR, testDelivery } from '../domain/webhook-records';
