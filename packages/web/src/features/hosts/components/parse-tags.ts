// Shared with Settings → Users, whose host tags read like a host's.
export { parseTags } from '@/lib/parse-tags';
