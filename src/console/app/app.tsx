/**
 * Placeholder shell: the console's pages (settings, configs, editor, A/B tests) arrive with
 * issues 4 to 6. It already shows what the product is, so `npm start` opens a real page.
 */
export function App() {
  return (
    <main>
      <h1>Provisioning Console</h1>
      <p>
        The console is under construction. The config contract and the config domain (schema,
        validation, operations) are in place; the service and the pages come next.
      </p>
    </main>
  );
}
