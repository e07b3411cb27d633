import { LIVE_PROTOCOL_SPEC } from '@berth/contracts';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppConfig } from './config/config.js';
import { closeDatabase } from './db/close-database.js';
import { migrateToLatest, openDatabase } from './db/database.js';
import { agentConnectRoutes, agentsRoutes } from './modules/agents/index.js';
import { alertsRoutes } from './modules/alerts/index.js';
import { auditRequests, auditRoutes } from './modules/audit/index.js';
import { batchRoutes } from './modules/batch/index.js';
import { containerSettingsRoutes } from './modules/container-settings/index.js';
import { containersRoutes } from './modules/containers/index.js';
import { eventsRoutes } from './modules/events/index.js';
import { execRecordingsRoutes, registerExecChannel } from './modules/exec/index.js';
import { healthChecksRoutes } from './modules/health-checks/index.js';
import { imagesRoutes } from './modules/images/index.js';
import { metricsHistoryRoutes } from './modules/metrics-history/index.js';
import { hostsRoutes, registerLocalSocketOnce } from './modules/hosts/index.js';
import { mqttRoutes } from './modules/mqtt/index.js';
import { networksRoutes, NetworksService } from './modules/networks/index.js';
import { volumesRoutes, VolumesService } from './modules/volumes/index.js';
import { projectsRoutes } from './modules/projects/index.js';
import { ssoPublicRoutes, ssoSettingsRoutes } from './modules/sso/index.js';
import { notificationsRoutes } from './modules/notifications/index.js';
import { apiKeysRoutes } from './modules/api-keys/index.js';
import { apiDocsRoutes, registerOpenApi } from './modules/api-docs/index.js';
import {
  bearerOf,
  createAuthGuard,
  hostScopeOf,
  protectedAuthRoutes,
  publicAuthRoutes,
  registerHostReach,
  registerRoutePermissions,
  scopeReaches,
  SESSION_COOKIE,
  sessionsRoutes,
} from './modules/auth/index.js';
import { preferencesRoutes, settingsRoutes } from './modules/settings/index.js';
import { systemRoutes } from './modules/system/index.js';
import { twoFactorRoutes } from './modules/two-factor/index.js';
import { updatesRoutes } from './modules/updates/index.js';
import { usersRoutes } from './modules/users/index.js';
import {
  metricsExportRoutes,
  metricsRoute,
  observeRequestDurations,
} from './modules/metrics-export/index.js';
import { registerCompression } from './platform/compression.js';
import { registerErrorHandling } from './platform/error-handler.js';
import { limitRequestDrain } from './platform/graceful-stop.js';
import { BODY_LIMIT_BYTES, registerJsonBodyParser } from './platform/json-body.js';
import { registerLiveChannel } from './platform/live-channel.js';
import { logDestination } from './platform/log-stream.js';
import { registerOriginCheck } from './platform/origin-check.js';
import { registerSecurityHeaders } from './platform/security-headers.js';
import { registerWebApp } from './platform/web-app.js';
import { createServices, type AppServices } from './services.js';

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices;
    /** Every route as registered, so tests can probe all of them. */
    routeTable: { method: string; url: string }[];
  }
}

// Fastify's factory types speak of ajv schemas; these compilers take the routes' zod schemas.
const ZOD_COMPILERS = {
  buildValidator: () => validatorCompiler,
  buildSerializer: () => serializerCompiler,
} as unknown as NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>;

/**
 * Builds the whole server: platform plugins first (errors, body parsing, cookies), then the
 * database, then the API modules and the live channel, then the web app. Used by main and tests.
 */
export async function buildApp(config: AppConfig): Promise<FastifyInstance> {
  const app = Fastify({
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    // Every schema is zod: handing Fastify the zod compilers here keeps it from loading its
    // default ajv and fast-json-stringify compilers (~250 modules) that nothing would use.
    schemaController: { compilersFactory: ZOD_COMPILERS },
    logger: {
      level: config.logLevel,
      redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
      ...(await logDestination(config)),
    },
  });
  const routeTable: { method: string; url: string }[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routeTable.push({ method, url: route.url });
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerJsonBodyParser(app);
  registerSecurityHeaders(app);
  // Before any route is added: each /api route is stamped with the permission it needs.
  registerRoutePermissions(app);
  // Before any route too: the OpenAPI document collects each route as it is added.
  const openApi = registerOpenApi(app, () => app.services.version);
  // Only /api routes judge a bearer request by its key alone; the live channel reads the cookie.
  registerOriginCheck(
    app,
    config.allowedOrigins,
    (request) => request.url.startsWith('/api/') && bearerOf(request) !== null,
  );
  await app.register(cookie);
  await registerCompression(app);
  app.decorateRequest('auth', null);

  const db = openDatabase(config.dataDir, {
    onCheckpointError: (message) => app.log.warn({ message }, 'database checkpoints'),
  });
  // The first onClose hook added runs last: the database closes after everything that writes.
  app.addHook('onClose', () => closeDatabase(db, app.log));
  limitRequestDrain(app);
  await migrateToLatest(db);

  const services = await createServices(config, db, app.log);
  app.decorate('services', services);
  observeRequestDurations(app, services.metricsExport);
  await services.auth.ensureBootstrapAdmin(config.adminUsername, config.adminPassword);
  if (config.localSocket !== null) {
    await registerLocalSocketOnce(db, services.hosts, services.probe, config.localSocket, app.log);
  }

  const guard = createAuthGuard(services.auth, services.apiKeys, {
    viewerLogs: () => services.settings.get().viewer_logs,
  });
  const authOptions = { auth: services.auth, secureCookies: config.secureCookies };
  await app.register(
    async (api) => {
      // Every /api route passes the guard, which lets `public` ones through: what a route
      // needs is read from its permission, never from where it was registered.
      api.addHook('onRequest', guard);
      // Then the caller's host scope: a host out of reach in a route's path answers 404.
      registerHostReach(api, services.hostTags);
      // Every change and sign-in below is audited, refused ones too.
      auditRequests(api, services.audit);
      systemRoutes(api, { db, version: services.version });
      publicAuthRoutes(api, authOptions);
      ssoPublicRoutes(api, { sso: services.sso, secureCookies: config.secureCookies });
      // Agents authenticate with their own enrollment token or secret, never a session.
      agentConnectRoutes(api, { agents: services.agents });
      await api.register((signedIn, _opts, done) => {
        protectedAuthRoutes(signedIn, {
          ...authOptions,
          onSessionEnded: (tokenHash) => services.hub.closeSession(tokenHash),
        });
        sessionsRoutes(signedIn, {
          sessions: services.sessions,
          secureCookies: config.secureCookies,
        });
        apiKeysRoutes(signedIn, services);
        apiDocsRoutes(signedIn, openApi);
        settingsRoutes(signedIn, services);
        preferencesRoutes(signedIn, services);
        agentsRoutes(signedIn, services);
        hostsRoutes(signedIn, {
          hosts: services.hosts,
          ports: {
            show: (rows) => services.containerView.hosts(rows),
            resolveAlertsOf: (hostId) => services.alerts.resolveForHost(hostId),
          },
        });
        containersRoutes(signedIn, services);
        containerSettingsRoutes(signedIn, {
          containerSettings: services.containerSettings,
          showContainer: (hostId, id) => services.containerView.container(hostId, id),
        });
        eventsRoutes(signedIn, services);
        auditRoutes(signedIn, services);
        execRecordingsRoutes(signedIn, services);
        alertsRoutes(signedIn, services);
        batchRoutes(signedIn, services);
        projectsRoutes(signedIn, services);
        updatesRoutes(signedIn, services);
        usersRoutes(signedIn, services);
        twoFactorRoutes(signedIn, services);
        healthChecksRoutes(signedIn, services);
        metricsHistoryRoutes(signedIn, services);
        imagesRoutes(signedIn, services);
        notificationsRoutes(signedIn, {
          notifications: services.notifications,
          channelRules: services.alerts.rules,
        });
        mqttRoutes(signedIn, services);
        const resources = { fleet: services.monitor, audit: services.audit };
        volumesRoutes(signedIn, { ...resources, volumes: new VolumesService(resources) });
        networksRoutes(signedIn, { ...resources, networks: new NetworksService(resources) });
        ssoSettingsRoutes(signedIn, { sso: services.sso, secureCookies: config.secureCookies });
        metricsExportRoutes(signedIn, services);
        done();
      });
    },
    { prefix: '/api' },
  );

  // Prometheus looks for /metrics at the root; it declares its permission itself.
  metricsRoute(app, { metricsExport: services.metricsExport, guard });

  await registerLiveChannel(app, {
    hub: services.hub,
    authorize: async (request) => {
      const session = await services.auth.authenticate(request.cookies[SESSION_COOKIE]);
      if (session === null) return { refused: 'Not authenticated' };
      if (session.user.is_first_login) return { refused: 'Password change required' };
      if (session.hold != null) return { refused: session.hold.detail };
      return {
        sessionKey: session.tokenHash,
        userId: session.user.id,
        hostTags: hostScopeOf(session.user),
      };
    },
    isSessionAlive: (tokenHash) => services.auth.isSessionAlive(tokenHash),
    initialState: async (client) => {
      const hosts = await services.containerView.hosts(await services.hosts.list());
      // The scope as it is now, after the wait: it may have changed meanwhile.
      const { scope } = client;
      const reached = <T>(items: T[], hostOf: (item: T) => string) =>
        scope === null ? items : items.filter((item) => scope.reaches(hostOf(item)));
      const data = {
        hosts: reached(hosts, (h) => h.id),
        blackout: { is_active: services.notifications.blackoutActive() },
      };
      // The spec's clients refresh their containers from it; Berth's browser has them already
      // from the full containers_update sent just before.
      if (client.protocol !== LIVE_PROTOCOL_SPEC) return { type: 'initial_state', data };
      const containers = reached(services.containerView.listContainers(), (c) => c.host_id);
      return { type: 'initial_state', data: { ...data, containers } };
    },
    containersFull: (client) => services.containerView.containersFull(client),
  });
  // After the live channel, whose registration brings the WebSocket plugin.
  registerExecChannel(app, {
    exec: services.exec,
    authorize: async (request) => {
      const session = await services.auth.authenticate(request.cookies[SESSION_COOKIE]);
      if (session === null) return { refused: 'Not authenticated' };
      if (session.user.is_first_login) return { refused: 'Password change required' };
      if (session.hold != null) return { refused: session.hold.detail };
      const scope = hostScopeOf(session.user);
      return {
        username: session.user.username,
        role: session.user.role,
        reachesHost: (hostId) => scopeReaches(scope, services.hostTags.tagsOf(hostId)),
      };
    },
  });

  await services.notifications.start();
  await services.alerts.start();
  await services.monitor.start();
  services.metricsHistory.start();
  services.containerView.start();
  await services.healthChecks.start();
  services.retention.start();
  services.release.start();
  services.updates.start();
  await services.mqtt.start();
  // After the server stopped taking requests: what restarts containers, raises alerts and
  // queues notifications stops first, then the outbox sends (or leaves queued) what they
  // queued, then the event log; the database closes after all of them (its hook is first).
  // Before the server waits for its connections to end: an agent's never would.
  app.addHook('preClose', (done) => {
    services.agentTunnels.closeAll();
    done();
  });
  app.addHook('onClose', async () => {
    await services.healthChecks.stop();
    await services.mqtt.stop();
    services.autoRestart.stop();
    services.updates.stop();
    services.alerts.stop();
    services.containerView.stop();
    services.monitor.stop();
    await services.metricsHistory.stop();
    services.retention.stop();
    services.release.stop();
    await services.notifications.stop();
    await services.events.close();
    // Last: the rows of everything above (and of the final requests) are written.
    await services.audit.close();
  });

  await registerWebApp(app, config.webDir);
  return app;
}
