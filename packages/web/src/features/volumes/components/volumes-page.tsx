/** The fleet's volumes, with a host filter. (Being built: issue 53.) */
export function VolumesPage() {
  return (
    <div data-testid="volumes-page">
      <h1 className="mb-4 text-2xl font-semibold text-white">Volumes</h1>
    </div>
  );
}
