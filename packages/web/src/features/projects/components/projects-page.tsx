/** The fleet's projects, with a host filter. (Being built: issue 53.) */
export function ProjectsPage() {
  return (
    <div data-testid="projects-page">
      <h1 className="mb-4 text-2xl font-semibold text-white">Projects</h1>
    </div>
  );
}
