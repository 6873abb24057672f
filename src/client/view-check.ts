/**
 * What is wrong with a view received from the network, if anything: a hand-written check of
 * the shape the client reads (the contract's zod schema would weigh more than the whole
 * client). Returns the first problem as `path: what`, or undefined for a good view.
 */

type Check = (value: unknown, path: string) => string | undefined;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const text: Check = (value, path) =>
  typeof value === 'string' ? undefined : `${path}: not a string`;

const finiteNumber: Check = (value, path) =>
  typeof value === 'number' && Number.isFinite(value) ? undefined : `${path}: not a number`;

const flag: Check = (value, path) =>
  typeof value === 'boolean' ? undefined : `${path}: not a boolean`;

const settings: Check = (value, path) => {
  if (!isObject(value)) return `${path}: not an object`;
  for (const [key, setting] of Object.entries(value)) {
    const kind = typeof setting;
    if (kind !== 'string' && kind !== 'boolean' && finiteNumber(setting, '') !== undefined) {
      return `${path}.${key}: not a string, number or boolean`;
    }
  }
  return undefined;
};

function object(fields: Record<string, Check>): Check {
  return (value, path) => {
    if (!isObject(value)) return `${path}: not an object`;
    for (const [name, check] of Object.entries(fields)) {
      const problem = check(value[name], `${path}.${name}`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
}

function list(item: Check): Check {
  return (value, path) => {
    if (!Array.isArray(value)) return `${path}: not a list`;
    for (const [index, entry] of value.entries()) {
      const problem = item(entry, `${path}[${index}]`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
}

const view = object({
  app: object({ id: text, name: text, platform: text, enabled: flag, settings }),
  ab_tests: list(
    object({
      id: text,
      status: text,
      variants: list(object({ id: text, weight: finiteNumber, settings })),
    }),
  ),
  config: object({ id: text, revision: finiteNumber, published_at: text }),
});

export function viewProblem(value: unknown): string | undefined {
  return view(value, 'view');
}
