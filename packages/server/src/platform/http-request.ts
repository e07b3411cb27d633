// One HTTP client for webhooks and health checks, kept in the agent's package because the agent
// runs the same health-check probe on its host (decision 023).
export {
  HttpTimeoutError,
  httpRequest,
  type HttpAnswer,
  type HttpRequestOptions,
} from '@berth/agent/http-request';
