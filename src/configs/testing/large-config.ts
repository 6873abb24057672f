/**
 * A realistic large config, for size tests and measurements: `appCount` apps with a few
 * settings and comments, and one A/B test per hundred apps. Deterministic.
 */
const PLATFORMS = ['web', 'ios', 'android', 'server'] as const;

export function largeConfigText(appCount: number): string {
  const lines = ['# Generated config for measurements.', 'apps:'];
  for (let i = 0; i < appCount; i++) {
    lines.push(
      `  # app ${i}`,
      `  - id: app-${i}`,
      `    name: App number ${i}`,
      `    platform: ${PLATFORMS[i % PLATFORMS.length]}`,
      `    enabled: ${i % 7 !== 0}`,
      '    settings:',
      `      theme: ${i % 2 === 0 ? 'dark' : 'light'}`,
      `      max_items: ${i % 50}`,
      `      checkout_flow: "v${i % 3}"`,
    );
  }
  lines.push('ab_tests:');
  for (let i = 0; i < appCount; i += 100) {
    lines.push(
      `  - id: test-${i}`,
      `    app: app-${i + 1}`,
      '    description: Does a bigger button sell more?',
      '    status: draft',
      '    variants:',
      '      - id: control',
      '        weight: 50',
      '      - id: big',
      '        weight: 50',
      '        settings:',
      '          theme: dark',
    );
  }
  return `${lines.join('\n')}\n`;
}
