/** The fleet's images, with a host filter. (Being built: issue 53.) */
export function ImagesPage() {
  return (
    <div data-testid="images-page">
      <h1 className="mb-4 text-2xl font-semibold text-white">Images</h1>
    </div>
  );
}
