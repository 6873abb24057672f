/**
 * Clients editing drafts, in a process of their own so that reading the large answers never
 * delays the measurements of the bench's process. argv[2] is JSON: the service's URL, a key,
 * one draft id per client (repeat an id for clients sharing a draft) and how long to go on.
 * Prints `{ edits, failures }` as JSON.
 */
interface EditLoad {
  readonly url: string;
  readonly key: string;
  readonly drafts: readonly string[];
  readonly durationMs: number;
}

const load = JSON.parse(process.argv[2] ?? '{}') as EditLoad;
const until = Date.now() + load.durationMs;
let edits = 0;
let failures = 0;

async function client(draftId: string, clientIndex: number): Promise<void> {
  for (let run = 0; Date.now() < until; run++) {
    const response = await fetch(`${load.url}/api/v1/config/edit`, {
      method: 'POST',
      headers: { authorization: `Bearer ${load.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        config_id: draftId,
        summary: `Load ${run}`,
        operations: [{ update_app: [{ id: `app-${clientIndex}`, name: `Load ${run}` }] }],
      }),
    });
    const body = await response.arrayBuffer();
    if (response.ok) edits += 1;
    else {
      failures += 1;
      if (failures === 1) process.stderr.write(`${Buffer.from(body).toString().slice(0, 500)}\n`);
    }
  }
}

export {};

await Promise.all(load.drafts.map((draftId, index) => client(draftId, index)));
process.stdout.write(JSON.stringify({ edits, failures }));
