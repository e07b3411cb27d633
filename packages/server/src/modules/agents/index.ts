export { agentConnectRoutes, agentsRoutes } from './agents.routes.js';
export { AgentsService, type AgentHostView, type AgentsDeps } from './agents.service.js';
export { createAgentsStore } from './agents.store.js';
