/**
 * The config commands (src/config-cli) against a real service on 127.0.0.1: the service
 * listening, and each command run in this process with what it printed and its exit code.
 * Test-only.
 */
import type { AddressInfo } from 'node:net';
import { runConfigCommand, type ConfigCommandName } from '../../config-cli/commands';
import { startTestService, type TestService, type TestServiceOptions } from './test-service';

export interface ListeningService {
  readonly service: TestService;
  /** The service's base URL, `http://127.0.0.1:PORT`. */
  readonly url: string;
}

export async function listeningTestService(
  options: TestServiceOptions = {},
): Promise<ListeningService> {
  const service = await startTestService(options);
  await service.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = service.app.server.address() as AddressInfo;
  return { service, url: `http://127.0.0.1:${port}` };
}

export interface CommandRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `provisioning config NAME ARGS…` with `env` as its environment. */
export async function runConfig(
  env: Readonly<Record<string, string | undefined>>,
  name: ConfigCommandName,
  ...args: string[]
): Promise<CommandRun> {
  let stdout = '';
  let stderr = '';
  const code = await runConfigCommand(name, args, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env,
  });
  return { code, stdout, stderr };
}
