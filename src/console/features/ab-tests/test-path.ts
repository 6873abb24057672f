/** A test's page: `configId` is `live` for the live config's tests, else the draft's id. */
export function testPath(configId: string, testId: string): string {
  return `/ab-tests/${encodeURIComponent(configId)}/${encodeURIComponent(testId)}`;
}
