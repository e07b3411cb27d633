export { MQTT_ACTOR } from './command-handler.js';
export { mqttRoutes } from './mqtt.routes.js';
export { MqttService, type MqttDeps } from './mqtt.service.js';
export { createMqttStore } from './mqtt.store.js';
