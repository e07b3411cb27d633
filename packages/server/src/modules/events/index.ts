export { EventSearch } from './events-search.js';
export { eventsRoutes } from './events.routes.js';
export { EventsService, type EventInput } from './events.service.js';
export { createEventsStore } from './events.store.js';
export { searchMode } from './search-pattern.js';
