export { eventsRoutes } from './events.routes.js';
export { EventsService, type EventInput } from './events.service.js';
export { createEventsStore, searchMode } from './events.store.js';
