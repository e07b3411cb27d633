import { checkClasses } from '@/lib/cn';
import { overriddenClasses } from '@/lib/cn-conflicts';

// A component rendered in a test with conflicting Tailwind classes fails the test (lib/cn.ts).
checkClasses((classes) => {
  const overridden = overriddenClasses(classes);
  if (overridden.length > 0) {
    throw new Error(`Conflicting classes: ${overridden.join(' ')} overridden in "${classes}"`);
  }
});
