/** One host's projects, for the host modal's Projects tab. (Being built: issue 53.) */
export function HostProjectsTab({ hostId }: { hostId: string }) {
  return <div data-testid="host-projects" data-host-id={hostId} />;
}
