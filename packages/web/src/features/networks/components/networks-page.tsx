/** The fleet's networks, with a host filter. (Being built: issue 53.) */
export function NetworksPage() {
  return (
    <div data-testid="networks-page">
      <h1 className="mb-4 text-2xl font-semibold text-white">Networks</h1>
    </div>
  );
}
