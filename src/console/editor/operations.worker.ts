/**
 * The operations worker: turns editor text into operations, re-applies an edit after a 412,
 * finds applied paths in saved text, and reads a config's apps and A/B tests, off the main
 * thread (operations-protocol.ts).
 */
import { handleOperationsRequest, OperationsSession } from './operations-handler';
import type { OperationsEnvelope, OperationsReply } from './operations-protocol';

interface WorkerScope {
  onmessage: ((event: MessageEvent<OperationsEnvelope>) => void) | null;
  postMessage(message: OperationsReply): void;
}

const scope = self as unknown as WorkerScope;
const session = new OperationsSession();

scope.onmessage = (event) => {
  const { id, request } = event.data;
  let reply: OperationsReply;
  try {
    reply = { id, ok: true, result: handleOperationsRequest(session, request) };
  } catch (error) {
    reply = { id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  scope.postMessage(reply);
};
