import type { Container } from '@berth/contracts';

/** A shell in the container. (Being built: issue 53.) */
export function ShellTab({ container }: { container: Container }) {
  return <div data-testid="container-shell" data-container-id={container.id} />;
}
